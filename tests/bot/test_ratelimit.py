"""ChatRateLimiter, driven through process_request with fake callbacks (no network).

Budgets are tiny (a few requests per few tenths of a second) so every test runs in well under
a second; assertions are about order and about what ready_in reports, never about durations.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.adapters.ratelimit import ChatRateLimiter

#: The ``new_limiter`` fixture (tests/bot/conftest.py): limiters sharing the test's budgets.
LimiterFactory = Callable[..., ChatRateLimiter]

GROUP_A = -1001
GROUP_B = -1002
PRIVATE = 42
WINDOW = 0.3  # seconds


class Recorder:
    """Fake Bot API calls: each appends its label when 'answered'; some raise 429s first."""

    def __init__(self) -> None:
        self.answered: list[str] = []
        self.calls: list[str] = []
        self.retry_after: dict[str, list[float]] = {}

    def fail_with_429(self, label: str, *seconds: float) -> None:
        self.retry_after[label] = list(seconds)

    async def call(self, label: str) -> bool:
        self.calls.append(label)
        pending = self.retry_after.get(label)
        if pending:
            raise RetryAfter(dt.timedelta(seconds=pending.pop(0)))
        self.answered.append(label)
        return True


async def send(
    rl: ChatRateLimiter,
    rec: Recorder,
    label: str,
    chat_id: int | None,
    endpoint: str = "sendMessage",
    retries: int | None = None,
) -> Any:
    data: dict[str, Any] = {} if chat_id is None else {"chat_id": chat_id}
    return await rl.process_request(rec.call, (label,), {}, endpoint, data, retries)


async def test_a_group_over_budget_waits_alone(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(), Recorder()
    await send(rl, rec, "a1", GROUP_A)
    await send(rl, rec, "a2", GROUP_A)
    assert rl.ready_in(GROUP_A) > 0
    assert rl.ready_in(GROUP_B) == 0

    third = asyncio.create_task(send(rl, rec, "a3", GROUP_A))
    await asyncio.sleep(0)
    await send(rl, rec, "b1", GROUP_B)
    await send(rl, rec, "p1", PRIVATE)
    assert not third.done()
    await third

    assert rec.answered == ["a1", "a2", "b1", "p1", "a3"]
    assert rl.counters(GROUP_A).sent == 3
    assert rl.counters(GROUP_A).delayed == 1
    assert rl.counters(GROUP_B).delayed == 0
    assert rl.counters().sent == 5


async def test_private_chats_have_their_own_budget(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(group=(1, WINDOW), private=(3, WINDOW)), Recorder()
    await send(rl, rec, "g", GROUP_A)
    assert rl.ready_in(GROUP_A) > 0
    for label in ("p1", "p2"):
        await send(rl, rec, label, PRIVATE)
        assert rl.ready_in(PRIVATE) == 0
    await send(rl, rec, "p3", PRIVATE)
    assert rl.ready_in(PRIVATE) > 0


async def test_a_slot_counts_from_the_answer_not_from_the_send(new_limiter: LimiterFactory) -> None:
    """The server saw the request at some point before its answer: date it at the answer."""
    rl = new_limiter(group=(1, WINDOW))

    async def slow() -> bool:
        await asyncio.sleep(WINDOW / 2)
        return True

    await rl.process_request(slow, (), {}, "sendMessage", {"chat_id": GROUP_A}, None)
    answered = asyncio.get_running_loop().time()
    rec = Recorder()
    await send(rl, rec, "next", GROUP_A)
    # A window from the send would have let it go half a window after the answer.
    assert asyncio.get_running_loop().time() - answered > WINDOW * 0.8


async def test_retry_after_in_one_chat_pauses_that_chat_only(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(), Recorder()
    rec.fail_with_429("a1", 0.2)
    first = asyncio.create_task(send(rl, rec, "a1", GROUP_A))
    while not rec.calls:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0)  # let the 429 be handled
    assert rl.ready_in(GROUP_A) > 0
    assert rl.ready_in(GROUP_B) == 0

    await send(rl, rec, "b1", GROUP_B)
    await send(rl, rec, "answer", None, endpoint="answerCallbackQuery")
    await send(rl, rec, "me", None, endpoint="getMe")
    assert not first.done()
    assert await first is True

    assert rec.calls == ["a1", "b1", "answer", "me", "a1"]
    assert rl.counters(GROUP_A).retry_after == 1
    assert rl.counters(GROUP_B).retry_after == 0
    assert rl.counters().retry_after == 1


async def test_callback_answers_pass_while_a_chat_is_throttled(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(group=(1, WINDOW)), Recorder()
    await send(rl, rec, "a1", GROUP_A)
    queued = [asyncio.create_task(send(rl, rec, f"a{i}", GROUP_A)) for i in (2, 3)]
    await asyncio.sleep(0)
    await send(rl, rec, "answer", None, endpoint="answerCallbackQuery")
    assert rec.answered == ["a1", "answer"]
    await asyncio.gather(*queued)
    assert rec.answered == ["a1", "answer", "a2", "a3"]


async def test_retries_stop_after_max_retries(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(), Recorder()
    rec.fail_with_429("a", 0.01, 0.01, 0.01)
    with pytest.raises(RetryAfter):
        await send(rl, rec, "a", GROUP_A, retries=1)
    assert rec.calls == ["a", "a"]
    assert rl.counters(GROUP_A).retry_after == 2
    assert rl.counters(GROUP_A).sent == 0


async def test_a_429_without_a_chat_pauses_the_global_budget(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(), Recorder()
    rec.fail_with_429("commands", 0.2)
    commands = asyncio.create_task(send(rl, rec, "commands", None, endpoint="setMyCommands"))
    while not rec.calls:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0)
    assert rl.ready_in(GROUP_A) > 0
    assert rl.ready_in(PRIVATE) > 0

    await send(rl, rec, "answer", None, endpoint="answerCallbackQuery")
    await send(rl, rec, "p1", PRIVATE)
    await commands
    assert rec.answered[0] == "answer"
    assert set(rec.answered) == {"answer", "p1", "commands"}
    assert rl.counters(PRIVATE).delayed == 1
    assert rl.counters().retry_after == 1


async def test_the_global_budget_spans_chats(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(overall=(2, WINDOW)), Recorder()
    await send(rl, rec, "a", GROUP_A)
    await send(rl, rec, "b", GROUP_B)
    assert rl.ready_in(PRIVATE) > 0
    await send(rl, rec, "answer", None, endpoint="answerCallbackQuery")
    await send(rl, rec, "p", PRIVATE)
    assert rec.answered == ["a", "b", "answer", "p"]
    assert rl.counters(PRIVATE).delayed == 1


async def test_wait_ready_waits_for_the_budget_without_consuming_it(
    new_limiter: LimiterFactory,
) -> None:
    rl, rec = new_limiter(), Recorder()
    await rl.wait_ready(GROUP_A)  # an unknown chat is ready at once
    await send(rl, rec, "a1", GROUP_A)
    await send(rl, rec, "a2", GROUP_A)
    assert rl.ready_in(GROUP_A) > 0

    await rl.wait_ready(GROUP_A)
    assert rl.ready_in(GROUP_A) == 0
    await rl.wait_ready(GROUP_A)  # still ready: waiting took nothing
    assert rl.counters(GROUP_A).sent == 2
    await send(rl, rec, "a3", GROUP_A)
    assert rl.counters(GROUP_A).delayed == 0


async def test_wait_ready_waits_for_a_pause(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(), Recorder()
    rec.fail_with_429("a1", 0.2)
    first = asyncio.create_task(send(rl, rec, "a1", GROUP_A, retries=0))
    with pytest.raises(RetryAfter):
        await first
    assert rl.ready_in(GROUP_A) > 0
    await rl.wait_ready(GROUP_A)
    assert rl.ready_in(GROUP_A) == 0


async def test_reading_chat_information_costs_no_budget(new_limiter: LimiterFactory) -> None:
    rl, rec = new_limiter(group=(1, WINDOW)), Recorder()
    await send(rl, rec, "info", GROUP_A, endpoint="getChat")
    assert rl.ready_in(GROUP_A) == 0


async def test_an_inline_message_has_a_groups_budget_of_its_own(
    new_limiter: LimiterFactory,
) -> None:
    rl, rec = new_limiter(), Recorder()
    inline = {"inline_message_id": "AAAQxyz"}
    for label in ("i1", "i2"):
        await rl.process_request(rec.call, (label,), {}, "editMessageMedia", inline, None)
    assert rl.ready_in("AAAQxyz") > 0
    assert rl.ready_in("BBBQxyz") == 0 and rl.ready_in(GROUP_A) == 0
    assert rl.counters("AAAQxyz").sent == 2


async def test_an_unbudgeted_chat_only_counts_towards_the_global_budget(
    new_limiter: LimiterFactory,
) -> None:
    rl, rec = new_limiter(overall=(3, WINDOW)), Recorder()
    rl.unbudget(GROUP_B)
    for label in ("m1", "m2", "m3"):
        await send(rl, rec, label, GROUP_B, endpoint="sendPhoto")
    assert rl.counters(GROUP_B).delayed == 0
    assert rl.ready_in(GROUP_A) > 0  # the global window is full
