"""Rivincita between people is an offer: the opponent accepts or refuses it on a card of its
own, and it expires like a challenge. Nothing starts, and nothing is played, for a player
who has not accepted."""

from __future__ import annotations

import re

import pytest

from bot.game.dice import VerifiableDice
from bot.services import of_app

from .conftest import BotUnderTest, Reaction, start_match
from .fake_telegram import FakeChat, FakeUser, RecordedRequest, StoredMessage

TTL = 3
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


async def _finished_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, options: str
) -> StoredMessage:
    """A match Bruno wins because Anna resigns; returns its final board."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, options)
    asked = await bot.say(group, anna, "/abbandona")
    prompt = bot.tg.message(group, asked.of("sendMessage")[0].result["message_id"])
    if "Sì, abbandono" in prompt.button_texts:  # long: the price is stated, confirm it
        await bot.press(group, anna, prompt, "Sì, abbandono")
    else:
        await bot.press(group, anna, prompt, "Vittoria semplice · 1 punto")
        await bot.press(group, bruno, prompt, "Accetto l'abbandono")
    board = bot.board(group)
    assert "Rivincita" in board.button_texts
    return board


def _offer(bot: BotUnderTest, group: FakeChat, reaction: Reaction) -> StoredMessage:
    assert not reaction.of("sendPhoto")  # no board: nothing has started
    (sent,) = reaction.of("sendMessage")
    card = bot.tg.message(group, sent.result["message_id"])
    assert "Anna offre la rivincita a Bruno" in (card.text or "")
    return card


async def test_a_rematch_refused_starts_nothing(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _finished_match(bot, group, anna, bruno, "lungo 1")
    card = _offer(bot, group, await bot.press(group, anna, board, "Rivincita"))
    assert await bot.repo.load_game(group.id) is None
    own = await bot.press(group, anna, card, "Accetta")
    assert own.alert is not None and not own.of("sendPhoto")

    refused = await bot.press(group, bruno, card, "Rifiuta")
    assert not refused.of("sendPhoto")
    assert "ha rifiutato" in (bot.tg.message(group, card.message_id).text or "")
    assert await bot.repo.load_game(group.id) is None


async def test_a_rematch_accepted_starts_the_new_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _finished_match(bot, group, anna, bruno, "classico 1")
    card = _offer(bot, group, await bot.press(group, anna, board, "Rivincita"))
    bot.dice.queue_opening(4, 2)
    accepted = await bot.press(group, bruno, card, "Accetta")
    assert accepted.of("sendPhoto")
    assert await bot.repo.load_game(group.id) is not None


@pytest.mark.parametrize("bot_options", [{"challenge_ttl": TTL}])
async def test_a_rematch_not_answered_expires(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _finished_match(bot, group, anna, bruno, "classico 1")
    card = _offer(bot, group, await bot.press(group, anna, board, "Rivincita"))
    accept = card.data_for("Accetta")

    def expired(request: RecordedRequest) -> bool:
        return request.method == "editMessageText" and "scaduta" in str(request.params)

    await bot.tg.wait_for(expired, timeout=4 * TTL)
    assert bot.tg.message(group, card.message_id).button_texts == []
    late = await bot.press(group, bruno, card, data=accept, forge=True)  # a stale client
    assert late.alert is not None and not late.of("sendPhoto")
    assert await bot.repo.load_game(group.id) is None


async def test_an_accepted_rematch_plays_the_dice_its_offer_showed(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """The offer card shows the commitment of the dice the rematch will roll, as any card."""
    board = await _finished_match(bot, group, anna, bruno, "classico 1")
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()  # production dice from here on
    card = _offer(bot, group, await bot.press(group, anna, board, "Rivincita"))
    (shown,) = HEX64.findall(card.text or "")
    await bot.press(group, bruno, card, "Accetta")
    table = await bot.table(group)
    assert table.dice is not None and table.dice.commitment == shown
