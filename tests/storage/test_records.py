"""Finished games' records and the chat's pending dice seed, against the real server."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from storage import CorruptGameError
from storage.models import DAY, StorageConfig
from storage.repository import GameRepository
from storage.schema import SchemaRegistry


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed_repo(
    redis_client: aioredis.Redis, schema: SchemaRegistry, key_prefix: str, clock: Clock
) -> GameRepository:
    config = StorageConfig(prefix=key_prefix, record_ttl=30 * DAY)
    return GameRepository(redis_client, schema, config, clock=clock)


async def test_records_are_listed_newest_first(timed_repo: GameRepository, clock: Clock) -> None:
    assert await timed_repo.last_records(7) == []
    await timed_repo.archive_record(7, 1, 1, {"rec": "first"})
    clock.now += 60
    await timed_repo.archive_record(7, 1, 2, {"rec": "second"})
    clock.now += 60
    await timed_repo.archive_record(8, 2, 1, {"rec": "other chat"})
    records = await timed_repo.last_records(7)
    assert [(r.game_id, r.game_number, r.doc["rec"]) for r in records] == [
        (1, 2, "second"),
        (1, 1, "first"),
    ]
    assert records[0].finished_at == pytest.approx(clock.now - 60)
    (only,) = await timed_repo.last_records(7, limit=1)
    assert only.doc == {"rec": "second"}
    # writing the same game's record again replaces it
    await timed_repo.archive_record(7, 1, 2, {"rec": "again"})
    assert [r.doc["rec"] for r in await timed_repo.last_records(7)] == ["again", "first"]


async def test_records_expire_after_the_configured_days(
    timed_repo: GameRepository, redis_client: aioredis.Redis, key_prefix: str, clock: Clock
) -> None:
    await timed_repo.archive_record(7, 1, 1, {"rec": "old"})
    ttl = await redis_client.pttl(timed_repo.keys.record(7, 1, 1))
    assert 29 * DAY * 1000 < ttl <= 30 * DAY * 1000
    clock.now += 31 * DAY
    assert await timed_repo.last_records(7) == []  # out of the window even before Redis drops it
    await timed_repo.archive_record(7, 1, 2, {"rec": "new"})
    assert await redis_client.zcard(timed_repo.keys.records(7)) == 1  # the old entry was pruned


async def test_an_unreadable_record_is_reported_for_its_chat(
    timed_repo: GameRepository, redis_client: aioredis.Redis, key_prefix: str
) -> None:
    await timed_repo.archive_record(7, 1, 1, {"rec": "x"})
    await redis_client.set(timed_repo.keys.record(7, 1, 1), b"not json")
    with pytest.raises(CorruptGameError):
        await timed_repo.last_records(7)


async def test_the_pending_seed_stays_until_a_game_takes_it(repo: GameRepository) -> None:
    assert await repo.take_dice_seed(5) is None
    first = await repo.pending_dice_seed(5, "a" * 64)
    assert first == "a" * 64
    assert await repo.pending_dice_seed(5, "b" * 64) == "a" * 64  # shown once, kept
    assert await repo.pending_dice_seed(6, "c" * 64) == "c" * 64  # per chat
    assert await repo.take_dice_seed(5) == "a" * 64
    assert await repo.take_dice_seed(5) is None
    assert await repo.pending_dice_seed(5, "d" * 64) == "d" * 64
