"""Under Telegram's limits (20 sends and edits a minute in a group) a redraw may have to
wait: the answer to the press then says when the board catches up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser

ANSWER_TIMEOUT = 10.0


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(enforce_limits=True, latency=0.01) as fake:
        yield fake


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"rate_limited": True}


async def _answer(tg: FakeTelegram, query_id: str) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_TIMEOUT
    while (answer := tg.callback_answer(query_id)) is None:
        assert loop.time() < deadline, "the press was never answered"
        await asyncio.sleep(0.01)
    return answer


async def test_a_redraw_held_by_the_group_budget_is_announced_with_its_wait(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    texts: list[str] = []
    announced_at = 0.0
    loop = asyncio.get_running_loop()
    for n in range(30):  # a step and its take-back, again and again: each one redraws
        board = bot.board(group)
        label = "8/5" if n % 2 == 0 else "↩ Annulla"
        if label not in board.button_texts:
            await asyncio.sleep(0.2)
            continue
        answer = await _answer(tg, tg.press(group, anna, board, board.data_for(label)))
        assert not answer.get("show_alert"), answer
        texts.append(answer.get("text") or "")
        if "si aggiorna tra" in texts[-1]:
            announced_at = loop.time()
            break
        await asyncio.sleep(0.3)
    wait = texts[-1]
    assert wait.startswith("✔ Fatto: la tavola si aggiorna tra ") and wait.endswith(" s"), texts
    seconds = int(wait.removeprefix("✔ Fatto: la tavola si aggiorna tra ").removesuffix(" s"))

    # The board catches up when it said it would (the wait is a lower bound: a little later).
    stored = await bot.stored(group)
    assert stored is not None
    while (await bot.stored(group)).shown_version != stored.version:  # type: ignore[union-attr]
        assert loop.time() - announced_at < seconds + 5, "the board was not redrawn in time"
        await asyncio.sleep(0.2)
    assert loop.time() - announced_at >= seconds - 2  # it really had to wait
