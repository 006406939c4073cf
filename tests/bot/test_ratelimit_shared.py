"""Two ChatRateLimiters over one token's budgets in Redis: the workers of one bot together
respect Telegram's limits, a 429 pauses a chat for both, and a private chat keeps a human
pace after a burst (driven with fake callbacks, no network)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

from telegram.error import RetryAfter

from bot.adapters.ratelimit import ChatRateLimiter

#: The ``new_limiter`` fixture (tests/bot/conftest.py): limiters sharing the test's budgets.
LimiterFactory = Callable[..., ChatRateLimiter]

GROUP = -1001
PRIVATE = 42
WINDOW = 0.3


class Timeline:
    """When each request reached the fake server (its start) and was answered."""

    def __init__(self, latency: float = 0.02) -> None:
        self.latency = latency
        self.spans: list[tuple[float, float]] = []
        self.refuse: list[float] = []

    async def call(self) -> bool:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(self.latency)
        if self.refuse:
            raise RetryAfter(dt.timedelta(seconds=self.refuse.pop(0)))
        self.spans.append((start, loop.time()))
        return True


async def send(rl: ChatRateLimiter, line: Timeline, chat: int, endpoint: str = "sendPhoto") -> None:
    await rl.process_request(line.call, (), {}, endpoint, {"chat_id": chat}, None)


async def test_two_workers_together_keep_a_groups_budget(new_limiter: LimiterFactory) -> None:
    one, two = new_limiter(group=(2, WINDOW)), new_limiter(group=(2, WINDOW))
    line = Timeline()
    await asyncio.gather(*(send(rl, line, GROUP) for rl in (one, two) * 3))
    starts = sorted(start for start, _ in line.spans)
    answers = sorted(answer for _, answer in line.spans)
    assert len(starts) == 6
    # Never a third request within a window of the answer of the one two places before.
    assert all(starts[i + 2] >= answers[i] + WINDOW - 0.005 for i in range(4))
    assert one.counters(GROUP).delayed + two.counters(GROUP).delayed >= 4


async def test_two_workers_together_keep_the_bots_budget(new_limiter: LimiterFactory) -> None:
    one, two = (new_limiter(overall=(4, WINDOW), group=(100, WINDOW)) for _ in range(2))
    line = Timeline()
    chats = [GROUP - n for n in range(8)]
    await asyncio.gather(*(send(rl, line, c) for rl, c in zip((one, two) * 4, chats, strict=True)))
    starts = sorted(start for start, _ in line.spans)
    answers = sorted(answer for _, answer in line.spans)
    assert all(starts[i + 4] >= answers[i] + WINDOW - 0.005 for i in range(4))


async def test_a_429_in_one_worker_pauses_the_chat_in_the_other(
    new_limiter: LimiterFactory,
) -> None:
    one, two = new_limiter(), new_limiter()
    refused = Timeline()
    refused.refuse = [0.4]
    first = asyncio.create_task(send(one, refused, GROUP))
    while not one.counters(GROUP).retry_after:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # the pause is settled in Redis before the retry
    loop = asyncio.get_running_loop()
    started = loop.time()
    other = Timeline()
    await send(two, other, GROUP)
    assert other.spans[0][0] - started >= 0.3  # the other worker waited for the pause too
    await send(two, other, GROUP - 1)  # another chat did not wait
    assert other.spans[1][0] - other.spans[0][1] < 0.1
    await first


async def test_a_private_chat_keeps_a_human_pace_after_a_burst(
    new_limiter: LimiterFactory,
) -> None:
    """A burst of three redraws, then one a refill (a tap a second at Telegram's scale):
    none waits, where a rolling window of three would hold each for a whole window."""
    one, two = new_limiter(private=(3, WINDOW)), new_limiter(private=(3, WINDOW))
    line = Timeline(latency=0.005)
    for rl in (one, two, one):
        await send(rl, line, PRIVATE, "editMessageMedia")
    for n in range(5):
        await asyncio.sleep(WINDOW / 3 + 0.02)
        await send((one, two)[n % 2], line, PRIVATE, "editMessageMedia")
    assert one.counters(PRIVATE).delayed + two.counters(PRIVATE).delayed == 0
    assert len(line.spans) == 8


async def test_a_private_chat_faster_than_its_rate_waits(new_limiter: LimiterFactory) -> None:
    one, two = new_limiter(private=(3, WINDOW)), new_limiter(private=(3, WINDOW))
    line = Timeline(latency=0.005)
    await asyncio.gather(*(send(rl, line, PRIVATE) for rl in (one, two) * 3))
    spans = sorted(line.spans)
    # One request in flight at a time.
    assert all(spans[i + 1][0] >= spans[i][1] for i in range(5))
    # Whenever the server saw each request (between its sending and its answer), a bucket of
    # three refilled at its rate never ran dry: from the answer of any request to the
    # sending of a later one, the requests in between fit the burst plus the refill.
    burst, rate = 3, 3 / WINDOW
    for i, (start, _) in enumerate(spans):
        for j in range(i):
            assert i - j + 1 <= burst + rate * (start - spans[j][1]) + 0.01
    assert one.counters(PRIVATE).delayed + two.counters(PRIVATE).delayed >= 2
