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


async def test_a_claim_takes_its_chats_unreachable_marker_once(repo: GameRepository) -> None:
    """Claiming an update of a chat marked unreachable takes the marker in the same step; a
    duplicate delivery of it, or an update of another chat, leaves markers alone."""
    assert await repo.mark_unreachable(-500, "kicked", [-500])
    assert await repo.mark_unreachable(-600, "kicked", [-600])
    assert await repo.claim_update_from(BOT, 1, -500) == (True, "kicked")
    assert await repo.unreachable(-500) is None
    assert await repo.claim_update_from(BOT, 1, -500) == (False, None)  # a duplicate
    assert await repo.claim_update_from(BOT, 2, None) == (True, None)
    assert await repo.unreachable(-600) == "kicked"
    assert await repo.claim_update_from(BOT, 3, -500) == (True, None)  # no longer marked
