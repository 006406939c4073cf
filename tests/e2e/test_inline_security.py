"""Inline cards act only in the message they were sent in, as sent.

Every card of an inline answer is signed with the same key, so a modified client could press
one card's (valid) data on another card's message: a single game's card would start a match.
The bot learns which card each message carries from ``chosen_inline_result`` (inline feedback
on in @BotFather) and refuses any other card's data there; a closed card's buttons act no
more; settings data pressed there is refused; and the card commits to its game's dice.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapters.places import inline_key
from bot.game.dice import VerifiableDice
from bot.services import of_app
from bot.texts import messages as T
from engine import GameRecord, derive_dice, dice_commitment

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .test_inline import play_inline_until, post_card, result_titled, table_of

MEDIA_CHAT = -1009876543210
SINGLE = "Backgammon classico · Partita singola"
MATCH_3 = "Backgammon classico · Match a 3 punti"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


@pytest.fixture(autouse=True)
def inline_mode_on(tg: FakeTelegram) -> None:
    tg.channel(MEDIA_CHAT, "Tavole")
    tg.supports_inline_queries = True


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"media_chat": MEDIA_CHAT}


@pytest.fixture
def chat_of_two(bruno: FakeUser) -> FakeChat:
    return FakeChat(bruno.id, "private", first_name=bruno.first_name)


def accept_data(answer: dict[str, Any], title: str) -> str:
    """The Accetta data of one card of an inline answer (all of them reach the asker)."""
    (result,) = [r for r in answer["results"] if r["title"] == title]
    for row in result["reply_markup"]["inline_keyboard"]:
        for button in row:
            if button["text"] == "Accetta":
                return str(button["callback_data"])
    raise AssertionError("no Accetta on the card")


async def test_a_signed_card_replayed_on_another_message_is_refused_and_changes_nothing(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    answer = await bot.inline_query(anna, "")
    inline_id = tg.choose_inline_result(
        answer["id"], result_titled(answer, SINGLE), chat_of_two, feedback=True
    )
    shown = tg.inline_message(inline_id).snapshot()
    match_data = accept_data(answer, MATCH_3)  # the 3-point card, never sent
    replayed = await bot.press_inline(bruno, inline_id, data=match_data, forge=True)
    assert replayed.alert == T.ALERT_STALE_BUTTON
    assert await bot.repo.load_game(inline_key(inline_id)) is None
    assert tg.inline_message(inline_id).snapshot() == shown

    # Another message's card (a 3-point match sent elsewhere) is no better here.
    other_chat = FakeChat(anna.id + 500, "private", first_name="Carla")
    answer2 = await bot.inline_query(anna, "")
    tg.choose_inline_result(
        answer2["id"], result_titled(answer2, MATCH_3), other_chat, feedback=True
    )
    elsewhere = await bot.press_inline(
        bruno, inline_id, data=accept_data(answer2, MATCH_3), forge=True
    )
    assert elsewhere.alert == T.ALERT_STALE_BUTTON
    assert await bot.repo.load_game(inline_key(inline_id)) is None

    # The card's own Accetta starts what the message advertised: a single game.
    bot.dice.queue_opening(3, 1)
    accepted = await bot.press_inline(bruno, inline_id, "Accetta")
    assert accepted.alert is None
    assert (await table_of(bot, inline_id)).state.config.length == 1


async def test_a_closed_card_acts_no_more(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "@bruno", SINGLE)
    accept = tg.inline_message(inline_id).data_for("Accetta")
    await bot.press_inline(bruno, inline_id, "Rifiuta")
    closed = tg.inline_message(inline_id).snapshot()
    again = await bot.press_inline(bruno, inline_id, data=accept, forge=True)
    assert again.alert is not None
    assert await bot.repo.load_game(inline_key(inline_id)) is None
    assert tg.inline_message(inline_id).snapshot() == closed


async def test_a_card_sent_twice_plays_in_one_message_only(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    answer = await bot.inline_query(anna, "")
    result = result_titled(answer, SINGLE)
    first = tg.choose_inline_result(answer["id"], result, chat_of_two, feedback=True)
    other_chat = FakeChat(anna.id + 500, "private", first_name="Carla")
    second = tg.choose_inline_result(answer["id"], result, other_chat, feedback=True)
    await bot.idle()
    # The two reports arrive for two inline messages, handled concurrently: whichever is
    # bound first keeps the card, and exactly one of the two becomes the closed copy.
    closed = [
        inline_id
        for inline_id in (first, second)
        if tg.inline_message(inline_id).text == T.INLINE_CARD_SENT_TWICE
    ]
    assert len(closed) == 1
    copy_id = closed[0]
    kept_id = second if copy_id == first else first
    assert tg.inline_message(copy_id).button_texts == []
    accept = tg.inline_message(kept_id).data_for("Accetta")
    refused = await bot.press_inline(bruno, copy_id, data=accept, forge=True)
    assert refused.alert is not None
    assert await bot.repo.load_game(inline_key(copy_id)) is None
    bot.dice.queue_opening(3, 1)
    assert (await bot.press_inline(bruno, kept_id, "Accetta")).alert is None


async def test_without_inline_feedback_a_card_is_refused_politely(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "", SINGLE, feedback=False)
    refused = await bot.press_inline(bruno, inline_id, "Accetta")
    assert refused.alert == T.ALERT_CARD_NOT_RECOGNISED
    assert await bot.repo.load_game(inline_key(inline_id)) is None


async def test_forged_settings_data_on_an_inline_card_is_refused_and_the_card_kept(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "", SINGLE)
    shown = tg.inline_message(inline_id).snapshot()
    for data in ("o:auto_confirm:1", f"o:auto_confirm:1:{bruno.id}"):
        reaction = await bot.press_inline(bruno, inline_id, data=data, forge=True)
        assert reaction.alert is not None, data
        assert tg.inline_message(inline_id).snapshot() == shown
    assert "Accetta" in tg.inline_message(inline_id).button_texts
    assert (await bot.repo.get_preferences(bruno.id)).get("auto_confirm") is None


@pytest.mark.slow
async def test_the_commitment_on_an_inline_card_is_the_one_verified_after_the_game(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()  # the production source
    inline_id = await post_card(bot, chat_of_two, anna, "", SINGLE)
    (commitment,) = HEX64.findall(tg.inline_message(inline_id).text or "")
    await bot.press_inline(bruno, inline_id, "Accetta")
    table = await table_of(bot, inline_id)
    assert table.dice is not None
    salt = f"v2.{anna.id}.{bruno.id}"  # the players' words: their ids unless they chose
    assert (table.dice.commitment, table.dice.salt) == (commitment, salt)
    assert table.dice.seed not in (tg.inline_message(inline_id).caption or "")

    final = await play_inline_until(bot, inline_id, (anna, bruno), {"Rivincita"})
    seed = table.dice.seed
    assert seed in (final.caption or "")  # revealed at the end
    assert salt in (final.caption or "")  # with the salt: no /verifica in an inline message
    assert dice_commitment(seed) == commitment
    (kept,) = await bot.repo.last_records(inline_key(inline_id), limit=1)
    assert kept.doc["dp"] == [seed, salt, 2]
    record = GameRecord.from_doc(kept.doc["rec"])
    assert record.finished
    assert record.dice == derive_dice(seed, salt, record.dice_count)


async def test_other_familys_data_on_an_inline_card_is_refused_without_a_traceback(
    bot: BotUnderTest, tg: FakeTelegram, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """(The replay and export buttons, ``v:``, belong on inline boards: they send files to
    whoever presses, and change nothing.)"""
    inline_id = await post_card(bot, chat_of_two, anna, "", SINGLE)
    shown = tg.inline_message(inline_id).snapshot()
    forged = [
        "g:1:1:r",
        "c:1:a",
        "c:1:x",
        "k:1:go",
        "k:1:n:5",
        "p:classic",
        "p:classic:facile:1",
        "r:classico:_",
        "m:gioca",
        "m:regole",
        "o:auto_confirm:1",
        "zz:1",
    ]
    for data in forged:
        for user in (anna, bruno):
            reaction = await bot.press_inline(user, inline_id, data=data, forge=True)
            assert reaction.alert is not None, data
            assert reaction.alert != T.GENERIC_ERROR[: T.MAX_ALERT_CHARS], data
            assert tg.inline_message(inline_id).snapshot() == shown, data
    assert await bot.repo.load_game(inline_key(inline_id)) is None
    bot.dice.queue_opening(3, 1)
    assert (await bot.press_inline(bruno, inline_id, "Accetta")).alert is None
