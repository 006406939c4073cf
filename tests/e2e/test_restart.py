"""A restart in the middle of a game: the new process knows only what Redis holds, and the
buttons of the board message already in the chat keep working."""

from __future__ import annotations

import pytest

from .conftest import BotUnderTest, play_until, start_match
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow


async def test_game_continues_on_same_board_message_after_bot_restart(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    await bot.press(group, anna, board, "8/5")  # half a move: only in storage from now on
    stored = await bot.stored(group)
    assert stored is not None
    deadline = await bot.repo.get_deadline(group.id)
    assert deadline is not None

    old_app = await bot.restart()
    assert old_app is not bot.app
    # The turn's timers live in storage: the new process finds them as they were.
    assert await bot.repo.get_deadline(group.id) == pytest.approx(deadline, abs=0.01)
    reminder = await bot.repo.get_reminder(group.id)
    assert reminder is not None and reminder < deadline

    board = bot.tg.message(group, board.message_id)
    assert "Mossa: 8/5" in (board.caption or "")
    reaction = await bot.press(group, anna, board, "6/5")
    assert reaction.alert is None
    await bot.press(group, anna, board, "✅ Conferma")
    caption = bot.tg.message(group, board.message_id).caption or ""
    assert "Anna ha giocato 3-1: 8/5 6/5." in caption

    final = await play_until(bot, group, (anna, bruno), {"Rivincita"})
    assert final.message_id == board.message_id  # the same message all along
    assert "vince la partita" in (final.caption or "")
    assert await bot.stored(group) is None
