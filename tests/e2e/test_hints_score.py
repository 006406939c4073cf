"""Hints at the score and the cube, end to end: the play hint says what its numbers rest on,
and the cube has its own hint, before rolling when a double is possible and when a double
waits for an answer."""

from __future__ import annotations

import pytest

from bot.texts import review as R

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser, StoredMessage

pytestmark = pytest.mark.slow


async def _board(bot: BotUnderTest, chat: FakeChat) -> StoredMessage:
    """The game's board as it looks now (a hint's picture is not the board)."""
    stored = await bot.stored(chat)
    assert stored is not None and stored.board_message_id is not None
    return bot.tg.message(chat, stored.board_message_id)


async def test_hints_in_a_match_say_the_score_and_advise_on_the_cube(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3 suggerimenti")
    # The play: valued at the score, in chances of winning the match.
    reaction = await bot.press(group, anna, board, R.BTN_HINT)
    (photo,) = reaction.of("sendPhoto")
    caption = str(photo.params["caption"])
    assert "tiro 6-1" in caption
    assert "Valori al punteggio 0-0 (match a 3 punti), cubo a 1:" in caption
    first = next(line for line in caption.splitlines() if line.startswith("1. "))
    assert first.startswith("1. <code>13/7 8/7</code> (") and first.endswith(" %)")
    assert "Probabilità di vincere il match dopo ogni mossa" in caption

    # Bruno may double before rolling: the hint is the cube's.
    await bot.say(group, anna, "/mossa 13/7 8/7")
    board = await _board(bot, group)
    assert "Raddoppia" in board.button_texts and R.BTN_HINT in board.button_texts
    refused = await bot.press(group, anna, board, R.BTN_HINT)  # not Anna's decision
    assert refused.alert == R.ALERT_HINT_NOT_NOW
    reaction = await bot.press(group, bruno, board, R.BTN_HINT)
    assert reaction.alert is None and not reaction.of("sendPhoto")
    (text,) = reaction.texts()
    assert text.startswith(
        "💡 Cubo: suggerimento per Bruno, al punteggio 0-0 (match a 3 punti), cubo a 1"
    )
    assert "\nNon raddoppiare\n" in text  # far too early to double
    for future in ("senza raddoppio", "raddoppio accettato", "raddoppio rifiutato"):
        assert f"· {future}: " in text
    # Asking changed nothing: Bruno still chooses between rolling and doubling.
    assert (await _board(bot, group)).button_texts[:2] == ["🎲 Tira i dadi", "Raddoppia"]

    # Bruno doubles all the same: Anna's hint is whether to take.
    await bot.press(group, bruno, board, "Raddoppia")
    board = await _board(bot, group)
    assert board.button_texts == ["Accetto", "Rinuncio", R.BTN_HINT]
    reaction = await bot.say(group, anna, "/suggerimento")
    (text,) = reaction.texts()
    assert "suggerimento per Anna, al punteggio 0-0 (match a 3 punti), cubo a 1" in text
    assert "\nAccetta\n" in text
    assert "· se accetti: " in text and "· se rifiuti: " in text


async def test_a_single_game_hint_says_only_winning_counts(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """A 1-point match: no cube, gammons count nothing, only the win matters."""
    bot.dice.queue_opening(6, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1 suggerimenti")
    reaction = await bot.press(group, anna, board, R.BTN_HINT)
    caption = str(reaction.of("sendPhoto")[0].params["caption"])
    assert "Valori in una partita singola (conta solo vincerla):" in caption
