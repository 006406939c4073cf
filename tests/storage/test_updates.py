"""At-most-once updates: a Telegram update id is claimed by exactly one handler."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from storage import GameRepository

BOT = 123456
OTHER_BOT = 654321


async def test_of_concurrent_claims_of_one_update_exactly_one_wins(repo: GameRepository) -> None:
    claims = await asyncio.gather(*(repo.claim_update(BOT, 1001) for _ in range(8)))
    assert sorted(claims) == [False] * 7 + [True]
    assert not await repo.claim_update(BOT, 1001)  # a later redelivery too


async def test_bots_and_updates_are_claimed_independently(repo: GameRepository) -> None:
    assert await repo.claim_update(BOT, 7)
    assert await repo.claim_update(OTHER_BOT, 7)
    assert await repo.claim_update(BOT, 8)
    assert not await repo.claim_update(OTHER_BOT, 7)


async def test_a_claim_expires(repo: GameRepository, redis_client: aioredis.Redis) -> None:
    assert await repo.claim_update(BOT, 42)
    ttl_ms = await redis_client.pttl(repo.keys.update(BOT, 42))
    assert 86_000_000 < ttl_ms <= 86_400_000
    assert repo.keys.update(BOT, 42).startswith(repo.config.prefix + ":")

    assert await repo.claim_update(BOT, 43, ttl=0.05)
    await asyncio.sleep(0.2)
    assert await repo.claim_update(BOT, 43)  # forgotten after its ttl


async def test_a_claim_needs_a_positive_ttl(repo: GameRepository) -> None:
    with pytest.raises(ValueError, match="ttl must be positive"):
        await repo.claim_update(BOT, 1, ttl=0)
