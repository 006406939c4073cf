"""/partita re-posts the board (the old one loses its buttons and its prompt); /posizione
exports it."""

from __future__ import annotations

import re

from bot.texts import messages as T
from engine.gnubg import decode_match, decode_position

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


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
    assert "Tocca ad Anna" in (new.caption or "")
    retired = bot.tg.message(group, old.message_id)
    assert retired.button_texts == []
    # The old board no longer says whose turn it is: it points to the new one.
    assert retired.caption == T.BOARD_MOVED
    assert (await bot.stored(group)).board_message_id == new.message_id  # type: ignore[union-attr]

    # The new board's buttons work; the old board edits no more.
    await bot.press(group, anna, new, "8/5")
    assert "Mossa: 8/5" in (bot.board(group).caption or "")
    refused = await bot.press(group, anna, old, data=old_data, forge=True)
    assert refused.alert == T.ALERT_BUTTON_OLD_BOARD


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


def _ids(text: str) -> tuple[str, str]:
    """The Position ID and Match ID of a /posizione answer."""
    position = re.search(r"Position ID: (\S+)", text)
    match = re.search(r"Match ID: (\S+)", text)
    assert position and match, text
    return position.group(1), match.group(1)


async def test_position_of_a_one_point_match_is_gnubgs(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """gnubg 1.07: "new match 1", "set turn 0", "set dice 3 1" shows these two ids."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    (text,) = (await bot.say(group, bruno, "/posizione")).texts()
    position_id, match_id = _ids(text)
    info = decode_match(match_id)
    assert info.match_length == 1  # a 1-point match, not a money game (length 0)
    assert (info.on_roll, info.turn, info.dice) == (0, 0, (3, 1))
    assert (position_id, match_id) == ("4HPwATDgc/ABMA", "MIElAAAAAAAE")


async def test_position_while_a_double_waits_is_seen_from_the_doubler(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """gnubg 1.07: "new match 5", "set turn 0", "set dice 3 1", "move 8/5 6/5", "double"."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 5")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    (text,) = (await bot.say(group, anna, "/posizione")).texts()
    position_id, match_id = _ids(text)
    info = decode_match(match_id)
    assert (info.on_roll, info.turn, info.double_offered) == (1, 0, True)  # Bruno doubled
    not_on_roll, on_roll = decode_position(position_id)
    table = await bot.table(group)
    assert on_roll == table.state.checkers[table.state.side_of(1)]  # Bruno's own side
    assert not_on_roll == table.state.checkers[table.state.side_of(0)]
    assert (position_id, match_id) == ("sGfwATDgc/ABMA", "cBGgAAAAAAAE")


async def test_the_games_settings_stay_in_view_in_the_first_line(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(5, 2)
    board = await start_match(bot, group, anna, bruno, "lungo 3 mars ultimo perdente 5m")
    first = (board.caption or "").splitlines()[0]
    assert first == (
        "Backgammon lungo · Serie a 3 punti · punteggio: Oin e Mars · ultimo lancio · "
        "ogni partita la comincia chi ha perso la precedente · 5 minuti per turno"
    )
    await bot.say(group, bruno, "/partita")
    assert (bot.board(group).caption or "").splitlines()[0] == first
