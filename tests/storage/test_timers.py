"""Timers in sorted sets: claimed by exactly one worker under a lease, given to another when
the lease lapses, completed only while they are still the one stored."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from storage import GameRepository, SchemaRegistry, StorageConfig, Timer

CHAT = -100123


def _at(repo: GameRepository, clock: list[float]) -> GameRepository:
    """Another worker on the same keys, whose clock the test sets."""
    return GameRepository(repo.client, repo.schema, repo.config, clock=lambda: clock[0])


async def test_a_due_timer_goes_to_exactly_one_of_many_claimers(repo: GameRepository) -> None:
    await repo.set_deadline(CHAT, 1000.0)
    await repo.set_reminder(CHAT, 990.0)
    await repo.set_deadline(CHAT + 1, 5000.0)  # not due yet
    clock = [2000.0]
    workers = [_at(repo, clock) for _ in range(8)]
    claims = await asyncio.gather(*(w.claim_due_timers("deadline", 30) for w in workers))
    assert sorted(t for c in claims for t in c) == [Timer("deadline", CHAT, 1_000_000)]
    (reminder,) = await workers[0].claim_due_timers("reminder", 30)
    assert reminder == Timer("reminder", CHAT, 990_000)
    assert await workers[1].claim_due_timers("reminder", 30) == []


async def test_a_lapsed_claim_is_claimed_again_and_a_completed_timer_is_gone(
    repo: GameRepository,
) -> None:
    await repo.set_deadline(CHAT, 1000.0)
    clock = [2000.0]
    worker = _at(repo, clock)
    (timer,) = await worker.claim_due_timers("deadline", 10)
    clock[0] = 2009.0
    assert await worker.claim_due_timers("deadline", 10) == []  # still leased
    clock[0] = 2010.5  # the claimer died: its lease lapsed
    assert await worker.claim_due_timers("deadline", 10) == [timer]
    await worker.complete_timer(timer)
    assert await repo.get_deadline(CHAT) is None
    clock[0] = 3000.0
    assert await worker.claim_due_timers("deadline", 10) == []


async def test_a_renewed_claim_outlives_its_first_lease_and_a_lapsed_one_is_not_renewed(
    repo: GameRepository,
) -> None:
    await repo.set_reminder(CHAT, 1000.0)
    clock = [2000.0]
    worker = _at(repo, clock)
    (timer,) = await worker.claim_due_timers("reminder", 10)
    clock[0] = 2008.0
    assert await worker.renew_timer(timer, 10)  # still firing: held until 2018
    clock[0] = 2015.0
    assert await worker.claim_due_timers("reminder", 10) == []  # the first lease is over
    clock[0] = 2018.5  # its worker died: the renewed lease lapsed too
    assert await worker.claim_due_timers("reminder", 10) == [timer]
    await worker.complete_timer(timer)
    assert not await worker.renew_timer(timer, 10)  # nothing held: nothing renewed
    assert await repo.get_reminder(CHAT) is None


async def test_completing_an_old_timer_leaves_the_newer_one(repo: GameRepository) -> None:
    await repo.set_deadline(CHAT, 1000.0)
    clock = [2000.0]
    worker = _at(repo, clock)
    (timer,) = await worker.claim_due_timers("deadline", 10)
    await repo.set_deadline(CHAT, 1500.0)  # a move set the next turn's deadline meanwhile
    await worker.complete_timer(timer)
    assert await repo.get_deadline(CHAT) == 1500.0
    assert await worker.claim_due_timers("deadline", 10) == [Timer("deadline", CHAT, 1_500_000)]


async def test_a_released_timer_is_claimed_again_at_once(repo: GameRepository) -> None:
    await repo.set_reminder(CHAT, 1000.0)
    worker = _at(repo, [2000.0])
    (timer,) = await worker.claim_due_timers("reminder", 60)
    await worker.release_timer(timer)
    assert await worker.claim_due_timers("reminder", 60) == [timer]


async def test_cancel_stops_both_timers_of_a_chat(repo: GameRepository) -> None:
    await repo.set_deadline(CHAT, 1000.0)
    await repo.set_reminder(CHAT, 990.0)
    await repo.set_deadline(CHAT + 1, 1000.0)
    await repo.cancel_timers(CHAT)
    assert await repo.get_deadline(CHAT) is None and await repo.get_reminder(CHAT) is None
    assert await repo.get_deadline(CHAT + 1) == 1000.0


async def test_a_batch_skips_timers_already_claimed(
    redis_client: aioredis.Redis, schema: SchemaRegistry, storage_config: StorageConfig
) -> None:
    repo = GameRepository(redis_client, schema, storage_config, clock=lambda: 2000.0)
    for chat in range(10):
        await repo.set_deadline(chat, 1000.0 + chat)
    first = await repo.claim_due_timers("deadline", 30, most=4)
    second = await repo.claim_due_timers("deadline", 30, most=4)
    third = await repo.claim_due_timers("deadline", 30, most=4)
    assert [t.chat_id for t in first + second + third] == list(range(10))


async def test_a_reminder_is_set_only_for_the_deadline_in_force(repo: GameRepository) -> None:
    await repo.set_deadline(CHAT, 2000.0)
    assert not await repo.set_reminder(CHAT, 880.0, deadline=1000.0)  # an earlier turn's
    assert await repo.get_reminder(CHAT) is None
    assert await repo.set_reminder(CHAT, 1880.0, deadline=2000.0)
    assert await repo.get_reminder(CHAT) == 1880.0
