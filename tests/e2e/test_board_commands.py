"""/partita re-posts the board (the old one loses its buttons and its prompt); /posizione
exports it."""

from __future__ import annotations

from bot.texts import messages as T

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser

STALE = "Questo pulsante non è più valido."


async def test_board_command_reposts_the_board_and_retires_the_old_buttons(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    old = await start_match(bot, group, anna, bruno, "classico 1")
    old_data = old.data_for("8/5")

    reaction = await bot.say(group, bruno, "/partita")
    assert sorted(reaction.methods) == ["editMessageCaption", "sendPhoto"]
    new = bot.board(group)
    assert new.message_id != old.message_id
    assert "Tocca a Anna" in (new.caption or "")
    retired = bot.tg.message(group, old.message_id)
    assert retired.button_texts == []
    # The old board no longer says whose turn it is: it points to the new one.
    assert retired.caption == T.BOARD_MOVED
    assert (await bot.stored(group)).board_message_id == new.message_id  # type: ignore[union-attr]

    # The new board's buttons work; the old board edits no more.
    await bot.press(group, anna, new, "8/5")
    assert "Mossa: 8/5" in (bot.board(group).caption or "")
    refused = await bot.press(group, anna, old, data=old_data, forge=True)
    assert refused.alert == STALE


async def test_board_and_position_commands_without_a_game(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    for command in ("/partita", "/posizione", "/abbandona", "/mossa 8/5 6/5"):
        (text,) = (await bot.say(group, anna, command)).texts()
        assert text.startswith("In questa chat non c'è nessuna partita in corso."), command


async def test_position_command_gives_gnubg_ids_for_classic(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    (text,) = (await bot.say(group, bruno, "/posizione")).texts()
    assert "Posizione (GNU Backgammon)" in text
    assert "Position ID: 4HPwATDgc/ABMA" in text  # the starting position, Anna on roll
    assert "Match ID: " in text
