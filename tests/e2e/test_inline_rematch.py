"""Rivincita on an inline board is an offer, as in a chat: the board shows it with Accetta
/ Rifiuta, nothing starts for the player who has not accepted, a refusal or the expiry
gives the finished board back, and an accepted offer starts the rematch in the message."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.places import Place

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeUser, RecordedRequest
from .test_inline import MEDIA_CHAT, chat_of_two, inline_mode_on, post_card

__all__ = ["chat_of_two", "inline_mode_on"]  # the inline tests' fixtures, used here too

ACCEPT, DECLINE = "✅ Accetta la rivincita", "Rifiuta"
TTL = 3


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"media_chat": MEDIA_CHAT, "challenge_ttl": TTL}


async def _finished_inline_game(
    bot: BotUnderTest, chat: FakeChat, anna: FakeUser, bruno: FakeUser
) -> tuple[str, int]:
    """A single inline game that Anna resigns: (inline message id, its place's key)."""
    inline_id = await post_card(bot, chat, anna, "", "Backgammon classico · Partita singola")
    bot.dice.queue_opening(3, 1)
    await bot.press_inline(bruno, inline_id, "Accetta")
    await bot.press_inline(anna, inline_id, "Abbandona")
    await bot.press_inline(anna, inline_id, "Vittoria semplice · 1 punto")
    await bot.press_inline(bruno, inline_id, "Accetto l'abbandono")
    key = Place.inline(inline_id).key
    assert await bot.repo.load_game(key) is None
    assert "Rivincita" in bot.tg.inline_message(inline_id).button_texts
    return inline_id, key


async def test_an_inline_rematch_starts_only_once_accepted(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id, key = await _finished_inline_game(bot, chat_of_two, anna, bruno)

    offered = await bot.press_inline(bruno, inline_id, "Rivincita")
    assert offered.alert is None
    board = bot.tg.inline_message(inline_id)
    assert "Bruno offre la rivincita ad Anna" in (board.caption or "")
    assert board.button_texts == [ACCEPT, DECLINE]
    assert await bot.repo.load_game(key) is None  # nothing started for Anna
    own = await bot.press_inline(bruno, inline_id, ACCEPT)
    assert own.alert is not None and "aspetta la risposta" in own.alert
    assert await bot.repo.load_game(key) is None

    refused = await bot.press_inline(anna, inline_id, DECLINE)
    assert refused.alert is None
    board = bot.tg.inline_message(inline_id)
    assert "Anna rifiuta la rivincita di Bruno" in (board.caption or "")
    assert "Rivincita" in board.button_texts  # a later offer is still possible
    assert await bot.repo.load_game(key) is None
    assert await bot.repo.list_challenges(key) == []

    await bot.press_inline(anna, inline_id, "Rivincita")
    accepted = await bot.press_inline(bruno, inline_id, ACCEPT)
    assert accepted.alert is None
    assert await bot.repo.load_game(key) is not None
    assert "Tocca a" in (bot.tg.inline_message(inline_id).caption or "")


async def test_an_unanswered_inline_rematch_expires(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id, key = await _finished_inline_game(bot, chat_of_two, anna, bruno)
    await bot.press_inline(anna, inline_id, "Rivincita")

    def expired(request: RecordedRequest) -> bool:
        return "è scaduta" in str(request.params.get("caption", ""))

    await bot.tg.wait_for(expired, timeout=4 * TTL)
    board = bot.tg.inline_message(inline_id)
    assert "La rivincita proposta da Anna è scaduta" in (board.caption or "")
    assert "Rivincita" in board.button_texts and ACCEPT not in board.button_texts
    late = await bot.press_inline(bruno, inline_id, data=board.data_for("Rivincita"))
    assert late.alert is None
    assert await bot.repo.load_game(key) is None  # Bruno's press is an offer of his own
