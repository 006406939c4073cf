"""Two workers' CardEdits over one Redis: quick taps on one card, landing on either worker,
cost at most one edit per period between them, and the last edit shows the last state."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import redis.asyncio as aioredis
from telegram import InlineKeyboardMarkup

from bot.adapters.card_edits import CardEdits
from storage.edit_windows import EditWindows
from storage.keys import Keys

PERIOD = 0.4
CHAT, MESSAGE = -1001, 7


class RecordingBot:
    """Stands for PTB's Bot: records when each edit of the card reached it, and what."""

    def __init__(self) -> None:
        self.edits: list[tuple[float, str]] = []

    async def edit_message_text(self, text: str, **_: Any) -> bool:
        self.edits.append((asyncio.get_running_loop().time(), text))
        return True


async def test_taps_on_two_workers_share_one_edit_period(
    budgets_redis: tuple[aioredis.Redis, str],
) -> None:
    client, prefix = budgets_redis
    workers = [CardEdits(PERIOD, EditWindows(client, Keys(prefix))) for _ in range(2)]
    bot = RecordingBot()
    stored = {"text": ""}

    async def render() -> tuple[str, InlineKeyboardMarkup]:
        return stored["text"], InlineKeyboardMarkup([])

    for tap in range(10):  # ten taps in half a second, alternately on each worker
        stored["text"] = f"state {tap}"
        await workers[tap % 2].edit(bot, CHAT, MESSAGE, render)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
    for _ in range(3):
        await asyncio.gather(*(w.drain() for w in workers))
        await asyncio.sleep(PERIOD / 2)

    times = [t for t, _ in bot.edits]
    assert 2 <= len(times) <= 3, bot.edits
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= PERIOD * 0.9 for gap in gaps), gaps  # one edit per period, both workers
    assert bot.edits[-1][1] == "state 9"  # the card ends showing the last choice


async def test_a_held_edit_is_held_once_whatever_the_worker(
    budgets_redis: tuple[aioredis.Redis, str],
) -> None:
    client, prefix = budgets_redis
    windows = EditWindows(client, Keys(prefix))
    assert await windows.claim(CHAT, MESSAGE, PERIOD)
    assert not await windows.claim(CHAT, MESSAGE, PERIOD)
    wait = await windows.plan(CHAT, MESSAGE, PERIOD)
    assert wait is not None and 0 < wait <= PERIOD
    assert await windows.plan(CHAT, MESSAGE, PERIOD) is None  # another worker: held already
    await windows.unplan(CHAT, MESSAGE)
    assert await windows.plan(CHAT, MESSAGE, PERIOD) is not None
    await asyncio.sleep(PERIOD + 0.05)
    assert await windows.claim(CHAT, MESSAGE, PERIOD)  # the period is over: a new one opens
