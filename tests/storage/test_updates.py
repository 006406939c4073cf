"""At-most-once updates: a Telegram update id is claimed by exactly one handler."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from storage import GameRepository
from storage.handled import BUCKET_BITS, HandledUpdates

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
    handled = HandledUpdates(repo.config.prefix)
    assert await repo.claim_update(BOT, 42)
    ttl_ms = await redis_client.pttl(handled.bucket_key(BOT, 42))
    assert 86_000_000 < ttl_ms <= 86_400_000
    assert handled.bucket_key(BOT, 42).startswith(repo.config.prefix + ":")

    far = 42 + 10 * BUCKET_BITS  # a bucket of its own
    assert await repo.claim_update(BOT, far, ttl=0.05)
    await asyncio.sleep(0.2)
    assert await repo.claim_update(BOT, far)  # forgotten after its ttl


async def test_each_claim_renews_its_buckets_expiry(repo: GameRepository) -> None:
    """An update claimed late in a bucket's life is remembered for the whole ttl too: the
    bucket lives on past the expiry its first claim set."""
    first = 5 * BUCKET_BITS
    assert await repo.claim_update(BOT, first, ttl=0.3)
    await asyncio.sleep(0.2)
    assert await repo.claim_update(BOT, first + 1, ttl=0.3)
    await asyncio.sleep(0.2)  # past the first claim's ttl, within the second's
    assert not await repo.claim_update(BOT, first + 1, ttl=0.3)
    assert not await repo.claim_update(BOT, first, ttl=0.3)


async def test_neighbouring_ids_and_bucket_edges_are_told_apart(repo: GameRepository) -> None:
    edge = 3 * BUCKET_BITS
    for update_id in (edge - 1, edge, edge + 1):
        assert await repo.claim_update(BOT, update_id)
    assert await repo.claim_update(BOT, edge + 2)
    for update_id in (edge - 1, edge, edge + 1, edge + 2):
        assert not await repo.claim_update(BOT, update_id)


async def test_a_handled_update_costs_under_twenty_bytes(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    """Consecutive ids, as Telegram numbers them, share bitmaps: what Redis keeps per
    handled update (MEMORY USAGE over every key the claims made) stays far below a key each."""
    first, count = 900_000_000, 3 * BUCKET_BITS
    for offset in range(count):
        assert (await repo.claim_update_from(BOT, first + offset, -(offset % 50) - 1))[0]
    keys = [key async for key in redis_client.scan_iter(match=f"{repo.config.prefix}:*")]
    used = sum([await redis_client.memory_usage(key, samples=0) or 0 for key in keys])
    assert used / count <= 1.0
    assert not (await repo.claim_update_from(BOT, first + count // 2, -1))[0]


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
