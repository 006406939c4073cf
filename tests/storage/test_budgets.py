"""The shared budgets' script: two clients (two workers of one token) share every budget."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.crc import key_slot

from storage.budgets import Budget, ChatKind, SharedBudgets
from storage.connect import Client, make_client

BOT = 777
GROUP = -100
PRIVATE = 42
WINDOW = Budget(2, 0.4)
BUCKET = Budget(3, 0.6)  # a burst of 3, one more every 0.2 s


@pytest.fixture
async def second_client(redis_url: str) -> AsyncIterator[Client]:
    client = make_client(redis_url)  # one server, or a cluster (redis+cluster://)
    await client.ping()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def workers(
    redis_client: Client, second_client: Client, key_prefix: str
) -> tuple[SharedBudgets, SharedBudgets]:
    """The budgets as two workers see them, through two connections."""
    overall = Budget(100, 0.4)
    return (
        SharedBudgets(redis_client, key_prefix, BOT, overall=overall),
        SharedBudgets(second_client, key_prefix, BOT, overall=overall),
    )


async def send(budgets: SharedBudgets, chat: int, kind: ChatKind, budget: Budget) -> bool:
    """Take and, when taken, settle as answered at once; whether it was taken."""
    request = budgets.new_request_id()
    verdict = await budgets.take(request, chat, kind, budget)
    if verdict.taken:
        await budgets.settle(request, chat, kind, budget, answered=True)
    return verdict.taken


async def test_two_workers_share_a_groups_window(
    workers: tuple[SharedBudgets, SharedBudgets],
) -> None:
    one, two = workers
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)
    assert await send(two, GROUP, ChatKind.WINDOW, WINDOW)
    refused = await two.take(two.new_request_id(), GROUP, ChatKind.WINDOW, WINDOW)
    assert not refused.taken
    assert 0.3 < refused.wait <= 0.4 and refused.chat_wait == refused.wait
    assert await send(one, GROUP - 1, ChatKind.WINDOW, WINDOW)  # another group: its own
    await asyncio.sleep(refused.wait + 0.01)
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)


async def test_a_request_is_dated_by_its_answer(
    workers: tuple[SharedBudgets, SharedBudgets],
) -> None:
    """In flight, a request counts as answered now; once answered, from its answer."""
    one, two = workers
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)
    slow = one.new_request_id()
    assert (await one.take(slow, GROUP, ChatKind.WINDOW, WINDOW)).taken
    await asyncio.sleep(0.3)
    in_flight = await two.take(two.new_request_id(), GROUP, ChatKind.WINDOW, WINDOW)
    assert not in_flight.taken and in_flight.wait <= 0.1  # the first is leaving the window
    await one.settle(slow, GROUP, ChatKind.WINDOW, WINDOW, answered=True)
    await asyncio.sleep(0.15)
    later = await two.take(two.new_request_id(), GROUP, ChatKind.WINDOW, WINDOW)
    assert later.taken  # the first left; the slow one still counts
    again = await two.take(two.new_request_id(), GROUP, ChatKind.WINDOW, WINDOW)
    assert not again.taken and again.wait > 0.2  # dated by its answer, not its sending


async def test_a_private_chat_bursts_then_refills_one_at_a_time(
    workers: tuple[SharedBudgets, SharedBudgets],
) -> None:
    one, two = workers
    for budgets in (one, two, one):
        assert await send(budgets, PRIVATE, ChatKind.BUCKET, BUCKET)
    refused = await two.take(two.new_request_id(), PRIVATE, ChatKind.BUCKET, BUCKET)
    assert not refused.taken and 0.1 < refused.wait <= 0.2
    await asyncio.sleep(refused.wait + 0.01)
    assert await send(two, PRIVATE, ChatKind.BUCKET, BUCKET)  # one token came back
    assert not (await one.take(one.new_request_id(), PRIVATE, ChatKind.BUCKET, BUCKET)).taken


async def test_a_private_chat_has_one_request_in_flight(
    workers: tuple[SharedBudgets, SharedBudgets],
) -> None:
    one, two = workers
    flying = one.new_request_id()
    assert (await one.take(flying, PRIVATE, ChatKind.BUCKET, BUCKET)).taken
    held = await two.take(two.new_request_id(), PRIVATE, ChatKind.BUCKET, BUCKET)
    assert not held.taken and held.wait > 0
    look = await two.take("", PRIVATE, ChatKind.BUCKET, BUCKET, consume=False)
    assert not look.taken
    settled = await one.settle(flying, PRIVATE, ChatKind.BUCKET, BUCKET, answered=True)
    assert settled.wait == 0  # two tokens left
    assert await send(two, PRIVATE, ChatKind.BUCKET, BUCKET)


async def test_the_bots_budget_spans_chats_and_workers(
    redis_client: Client, second_client: Client, key_prefix: str
) -> None:
    overall = Budget(3, 0.4)
    one = SharedBudgets(redis_client, key_prefix, BOT, overall=overall)
    two = SharedBudgets(second_client, key_prefix, BOT, overall=overall)
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)
    assert await send(two, GROUP - 1, ChatKind.WINDOW, WINDOW)
    assert await send(one, PRIVATE, ChatKind.BUCKET, BUCKET)
    refused = await two.take(two.new_request_id(), PRIVATE + 1, ChatKind.BUCKET, BUCKET)
    assert not refused.taken and refused.wait > 0 and refused.chat_wait == 0
    other_bot = SharedBudgets(second_client, key_prefix, BOT + 1, overall=overall)
    assert await send(other_bot, PRIVATE + 1, ChatKind.BUCKET, BUCKET)  # a budget per token


async def test_a_429_pauses_the_chat_for_every_worker(
    workers: tuple[SharedBudgets, SharedBudgets],
) -> None:
    one, two = workers
    request = one.new_request_id()
    assert (await one.take(request, GROUP, ChatKind.WINDOW, WINDOW)).taken
    await one.settle(request, GROUP, ChatKind.WINDOW, WINDOW, answered=False, chat_pause=0.5)
    paused = await two.take(two.new_request_id(), GROUP, ChatKind.WINDOW, WINDOW)
    assert not paused.taken and 0.4 < paused.chat_wait <= 0.5
    assert await send(two, GROUP - 1, ChatKind.WINDOW, WINDOW)  # other chats go on
    await asyncio.sleep(paused.wait + 0.01)
    # The refused request gave its place back: the window has room for two again.
    assert await send(two, GROUP, ChatKind.WINDOW, WINDOW)
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)


async def test_looking_takes_nothing(workers: tuple[SharedBudgets, SharedBudgets]) -> None:
    one, _ = workers
    for _ in range(5):
        assert (await one.take("", GROUP, ChatKind.WINDOW, WINDOW, consume=False)).wait == 0
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)
    assert await send(one, GROUP, ChatKind.WINDOW, WINDOW)


def test_a_tokens_budgets_live_in_one_cluster_slot(workers: tuple[SharedBudgets, ...]) -> None:
    one, _ = workers
    slots = {
        key_slot(key.encode())
        for chat in (GROUP, PRIVATE, "AAQinline", None)
        for key in one.keys(chat)
    }
    assert len(slots) == 1
