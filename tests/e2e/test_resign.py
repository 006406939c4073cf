"""Resigning: always after a confirmation that states the cost, then recorded as a result."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match, turn_holder
from .fake_telegram import FakeChat, FakeUser


async def test_resign_button_asks_with_cost_then_records_the_result(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    board = bot.board(group)
    roll_keyboard = board.button_texts
    assert "Abbandona" in roll_keyboard

    await bot.press(group, bruno, board, "Abbandona")
    board = bot.board(group)
    # Bruno has borne off nothing and still has checkers in Anna's home: a backgammon.
    assert "Abbandonando perdi 3 punti (backgammon). Confermi?" in (board.caption or "")
    assert board.button_texts == ["Sì, abbandono", "No, continuo"]
    refused = await bot.press(group, anna, board, "Sì, abbandono")  # not Anna's to confirm
    assert refused.alert == "Questo pulsante non è più valido."

    await bot.press(group, bruno, board, "No, continuo")
    board = bot.board(group)
    assert board.button_texts == roll_keyboard
    assert "Confermi?" not in (board.caption or "")

    await bot.press(group, bruno, board, "Abbandona")
    await bot.press(group, bruno, board, "Sì, abbandono")
    board = bot.board(group)
    caption = board.caption or ""
    assert "Bruno abbandona: Anna vince 3 punti (backgammon)." in caption
    assert "🏆 Anna vince il match a 3 punti, 3-0!" in caption
    assert board.button_texts == ["Rivincita"]
    assert await bot.stored(group) is None

    (text,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1" in text and "Vittorie: 1 (100%)" in text
    assert "Punti vinti: 3 · persi: 0" in text
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Sconfitte: 1" in text and "Punti vinti: 0 · persi: 3" in text


async def test_resign_command_by_player_waiting_keeps_opponent_able_to_play(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(bot, group, anna, bruno, "lungo 1")
    board = bot.board(group)
    mover = turn_holder(board.caption or "", (anna, bruno))
    assert mover is not None
    waiting = bruno if mover is anna else anna
    move_buttons = [t for t in board.button_texts if "/" in t]
    assert move_buttons

    reaction = await bot.say(group, waiting, "/abbandona")
    (question,) = reaction.of("sendMessage")
    # Nothing borne off yet: with Mars scoring the resigner loses 2 points.
    assert question.result["text"] == "Abbandonando perdi 2 punti (Mars). Confermi?"
    confirm = bot.tg.message(group, question.result["message_id"])
    assert confirm.button_texts == ["Sì, abbandono", "No, continuo"]
    # The board still lets the player on turn move (and offers the resigner the same choice).
    board = bot.board(group)
    assert [t for t in board.button_texts if "/" in t] == move_buttons
    assert board.button_texts[-2:] == ["Sì, abbandono", "No, continuo"]
    refused = await bot.press(group, mover, board, "Sì, abbandono")
    assert refused.alert == "Questo pulsante non è più valido."

    await bot.press(group, waiting, confirm, "Sì, abbandono")
    assert bot.tg.message(group, confirm.message_id).button_texts == []  # retired
    caption = bot.board(group).caption or ""
    loser, winner = waiting.first_name, mover.first_name
    assert f"{loser} abbandona: {winner} vince 2 punti (Mars)." in caption
    # A single game: no series was played, and the line above names the winner.
    assert "🏆" not in caption and "serie" not in caption
    assert await bot.stored(group) is None


async def test_resign_button_is_offered_while_moving_in_a_game_without_cube(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    assert "Abbandona" in board.button_texts
    await bot.press(group, anna, board, "Abbandona")
    assert "Abbandonando perdi 3 punti (backgammon)." in (bot.board(group).caption or "")
    await bot.press(group, anna, board, "No, continuo")
    board = bot.board(group)
    assert "8/5" in board.button_texts and "Abbandona" in board.button_texts
