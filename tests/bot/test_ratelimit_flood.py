"""ChatRateLimiter under a flood: a chat over its budget sheds chatter, coalesces repeats and
keeps its boards, with a bounded queue (driven with fake callbacks, no network)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.adapters.ratelimit import (
    MAX_WAITING,
    ChatRateLimiter,
    Priority,
    ReplyDroppedError,
    priority_of,
)

#: The ``new_limiter`` fixture (tests/bot/conftest.py): limiters sharing the test's budgets.
LimiterFactory = Callable[..., ChatRateLimiter]

GROUP = -1001
WINDOW = 0.3  # seconds


def limiter(new_limiter: LimiterFactory) -> ChatRateLimiter:
    return new_limiter(group=(1, WINDOW), overall=(100, WINDOW))


async def send(
    rl: ChatRateLimiter, sent: list[str], label: str, endpoint: str = "sendMessage", **data: Any
) -> Any:
    async def call() -> dict[str, Any]:
        sent.append(label)
        return {"label": label}

    return await rl.process_request(call, (), {}, endpoint, {"chat_id": GROUP, **data}, None)


def test_priorities_put_boards_first_and_plain_texts_last() -> None:
    assert priority_of("editMessageMedia", {}) is Priority.BOARD
    assert priority_of("sendPhoto", {}) is Priority.BOARD
    assert priority_of("sendMessage", {"reply_markup": object()}) is Priority.ANSWER
    assert priority_of("editMessageText", {}) is Priority.ANSWER
    assert priority_of("sendMessage", {"text": "no"}) is Priority.CHATTER


async def test_a_repeated_text_over_budget_is_dropped_at_once(new_limiter: LimiterFactory) -> None:
    rl, sent = limiter(new_limiter), []
    await send(rl, sent, "first", text="C'è già una sfida aperta")
    with pytest.raises(ReplyDroppedError):
        await send(rl, sent, "again", text="C'è già una sfida aperta")
    assert sent == ["first"]
    assert rl.counters(GROUP).dropped == 1
    await send(rl, sent, "other", text="Un altro testo")  # a new text waits its turn
    assert sent == ["first", "other"]


async def test_a_repeat_of_a_waiting_text_shares_its_answer(new_limiter: LimiterFactory) -> None:
    rl, sent = limiter(new_limiter), []
    await send(rl, sent, "card", reply_markup=object())
    waiting = asyncio.create_task(send(rl, sent, "text", text="aiuto"))
    await asyncio.sleep(0)
    repeat = await asyncio.gather(send(rl, sent, "repeat", text="aiuto"), waiting)
    assert repeat == [{"label": "text"}, {"label": "text"}]
    assert sent == ["card", "text"]
    assert rl.counters(GROUP).coalesced == 1


async def test_a_full_queue_sheds_chatter_and_keeps_the_board(new_limiter: LimiterFactory) -> None:
    rl, sent = limiter(new_limiter), []
    await send(rl, sent, "card", reply_markup=object())
    chatter = [
        asyncio.create_task(send(rl, sent, f"t{n}", text=f"testo {n}")) for n in range(MAX_WAITING)
    ]
    await asyncio.sleep(0)
    board = asyncio.create_task(send(rl, sent, "board", "editMessageMedia"))
    await asyncio.sleep(0)
    with pytest.raises(ReplyDroppedError):
        await chatter[0]  # the oldest chatter made room for the board
    await board
    assert "board" in sent
    assert sent.index("board") <= 1 + MAX_WAITING
    for task in chatter[1:]:
        task.cancel()
    await asyncio.gather(*chatter[1:], return_exceptions=True)
