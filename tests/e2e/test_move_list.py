"""/mosse and the board's "Mosse" button: the game's plays so far, both sides, in notation."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def _play_two_turns(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, board, "6/5")
    bot.dice.queue_rolls((6, 4))  # rolled for Bruno at once: a game without cube
    await bot.press(group, anna, board, "✅ Conferma")
    await bot.say(group, bruno, "/mossa 24/14")
    if "✅ Conferma" in bot.board(group).button_texts:
        await bot.press(group, bruno, bot.board(group), "✅ Conferma")


async def test_the_move_list_shows_both_sides_plays_in_notation(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _play_two_turns(bot, group, anna, bruno)
    (text,) = (await bot.say(group, bruno, "/mosse")).texts()
    lines = text.split("\n")
    assert lines[0] == "Mosse della partita 1: Anna contro Bruno"
    assert lines[1:] == ["1. Anna 3-1: 8/5 6/5", "2. Bruno 6-4: 24/14"]
    # The caption keeps the last play of each side.
    assert "Ultime mosse: Anna 3-1 8/5 6/5 · Bruno 6-4 24/14" in (bot.board(group).caption or "")


async def test_the_boards_button_sends_the_list_privately_or_shows_the_last_plays(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _play_two_turns(bot, group, anna, bruno)
    board = bot.board(group)
    assert "📜 Mosse" in board.button_texts
    # Bruno never wrote to the bot: a pop-up with the last plays, nothing in the group.
    bot.expect_errors("can.t initiate conversation")
    reaction = await bot.press(group, bruno, board, "📜 Mosse")
    assert reaction.alert is not None and "Anna 3-1: 8/5 6/5" in reaction.alert
    assert [r for r in reaction.of("sendMessage") if r.ok] == []
    # Anna did: the whole list comes to her private chat.
    await bot.say(bot.tg.private_chat(anna), anna, "/start")
    reaction = await bot.press(group, anna, board, "📜 Mosse")
    (sent,) = reaction.of("sendMessage")
    assert str(sent.params["chat_id"]) == str(anna.id)
    assert "2. Bruno 6-4: 24/14" in sent.result["text"]
