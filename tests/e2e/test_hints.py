"""Hints end to end: offered against the computer, refused in a people's game that did not
agree to them, offered once both agreed at the challenge (the word or the card button)."""

from __future__ import annotations

import pytest

from bot.texts import review as R

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest, StoredMessage

pytestmark = pytest.mark.slow


async def _computer_game(bot: BotUnderTest, chat: FakeChat, anna: FakeUser) -> StoredMessage:
    """Anna against the computer (Medio, classic, one game), Anna opening with 6-1."""
    bot.dice.queue_opening(6, 1)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Medio", "1 partita"):
        await bot.press(chat, anna, menu_id, label)
    return bot.board(chat)


def _hint_caption(photos: list[RecordedRequest]) -> str:
    assert len(photos) == 1, photos
    return str(photos[0].params["caption"])


async def test_hint_against_the_computer_shows_the_best_plays(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    board = await _computer_game(bot, chat, anna)
    assert R.BTN_HINT in board.button_texts
    reaction = await bot.press(chat, anna, board, R.BTN_HINT)
    assert reaction.alert is None
    caption = _hint_caption(reaction.of("sendPhoto"))
    assert "💡 Suggerimenti per <b>Anna</b> · tiro 6-1" in caption
    lines = [line for line in caption.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(lines) == 3
    # The textbook 6-1 comes first: make the 7 point.
    assert lines[0].startswith("1. <code>13/7 8/7</code>")
    # Asking changed nothing: the same board, the same stored version.
    stored = await bot.stored(chat)
    assert stored is not None and stored.board_message_id == board.message_id
    before = stored.version
    reaction = await bot.say(chat, anna, "/suggerimento")
    assert "tiro 6-1" in _hint_caption(reaction.of("sendPhoto"))
    after = await bot.stored(chat)
    assert after is not None and after.version == before


async def test_people_without_the_option_get_no_hint(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    board = await start_match(bot, group, anna, bruno)
    assert R.BTN_HINT not in board.button_texts
    reaction = await bot.say(group, anna, "/suggerimento")
    assert not reaction.of("sendPhoto")
    assert any("i suggerimenti sono spenti" in t for t in reaction.texts()), reaction.texts()
    # A forged hint button is refused just the same.
    stored = await bot.stored(group)
    assert stored is not None
    data = f"g:{stored.game_id}:{stored.version}:h"
    reaction = await bot.press(group, anna, board, data=data, forge=True)
    assert reaction.alert == R.ALERT_HINTS_OFF
    assert not reaction.of("sendPhoto")


@pytest.mark.parametrize("how", ["word", "card"])
async def test_people_who_agreed_get_hints_on_their_own_turn(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, how: str
) -> None:
    bot.dice.queue_opening(6, 1)
    if how == "word":
        board = await start_match(bot, group, anna, bruno, "suggerimenti")
    else:
        reaction = await bot.say(group, anna, "/sfida")
        card = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
        await bot.press(group, anna, card, R.btn_card_hints(False))
        card = bot.tg.message(group, card.message_id)
        assert R.btn_card_hints(True) in " ".join(card.button_texts)
        assert R.HINTS_ON in (card.text or "")
        await bot.press(group, anna, card, "Lancia la sfida")
        await bot.press(group, bruno, card, "Accetta")
        board = bot.board(group)
    assert R.BTN_HINT in board.button_texts
    # Anna opened with 6-1: Bruno may not ask for her roll.
    refused = await bot.press(group, bruno, board, R.BTN_HINT)
    assert refused.alert == R.ALERT_HINT_NOT_NOW
    reaction = await bot.press(group, anna, board, R.BTN_HINT)
    assert reaction.alert is None
    assert "tiro 6-1" in _hint_caption(reaction.of("sendPhoto"))
