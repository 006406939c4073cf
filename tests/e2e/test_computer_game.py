"""A game against the computer in a private chat, from /gioca to the rematch button."""

from __future__ import annotations

import importlib
import re

import pytest

from .conftest import BotUnderTest, play_until
from .fake_telegram import FakeTelegram, FakeUser


def _computer_available() -> bool:
    """engine.ai with its public API (a folder without __init__ would import as a namespace)."""
    try:
        module = importlib.import_module("engine.ai")
    except ImportError:
        return False
    return all(hasattr(module, name) for name in ("choose_play", "accept_double", "Level"))


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not _computer_available(),
        reason="the computer opponent (engine.ai) is not written yet",
    ),
]


@pytest.mark.parametrize(
    ("variant_button", "title"),
    [
        ("Backgammon classico", "Backgammon classico"),
        ("Backgammon lungo", "Backgammon lungo"),
    ],
    ids=["classic", "long"],
)
async def test_private_game_against_computer_to_the_end(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, variant_button: str, title: str
) -> None:
    chat = tg.private_chat(anna)
    reaction = await bot.say(chat, anna, "/gioca")
    (sent,) = reaction.of("sendMessage")
    menu = tg.message(chat, sent.result["message_id"])
    assert menu.button_texts == ["Backgammon classico", "Backgammon lungo"]

    await bot.press(chat, anna, menu, variant_button)
    menu = tg.message(chat, menu.message_id)
    assert menu.button_texts == ["Facile", "Medio", "Difficile", "« Indietro"]
    await bot.press(chat, anna, menu, "Facile")
    menu = tg.message(chat, menu.message_id)
    lengths = ["1 partita", "3 punti", "5 punti", "7 punti", "« Indietro"]
    if "lungo" not in title:  # classic also offers the money game, first
        lengths.insert(0, "Libera")
    assert menu.button_texts == lengths
    assert "Livello: Facile" in (menu.text or "")
    reaction = await bot.press(chat, anna, menu, "1 partita")
    if "lungo" in title:  # long first offers its scoring and last roll
        assert not reaction.of("sendPhoto")
        reaction = await bot.press(chat, anna, menu, "Inizia la partita")
    assert reaction.of("sendPhoto")
    assert tg.message(chat, menu.message_id).text == (
        "Anna contro il Computer (Facile). Buona partita!"
    )
    board = bot.board(chat)
    assert (board.caption or "").startswith(f"{title} · Partita singola")

    board = await play_until(
        bot,
        chat,
        (anna, anna),
        {"Rivincita"},
        label=f"whole game: computer, {title.rsplit(maxsplit=1)[-1]}",
    )
    caption = board.caption or ""
    assert re.search(r"(Anna|Computer) vince la partita: ", caption), caption
    assert "🏆" not in caption  # a single game is no match nor series
    assert await bot.stored(chat) is None
    (text,) = (await bot.say(chat, anna, "/statistiche")).texts()
    assert "Partite: 1" in text

    reaction = await bot.press(chat, anna, board, "Rivincita")
    assert reaction.alert is None
    assert reaction.of("sendPhoto")  # a new board for the new match...
    assert tg.message(chat, board.message_id).button_texts == []  # ...and the old one retired
    assert await bot.stored(chat) is not None


async def test_resign_offer_to_the_computer_is_answered_from_its_evaluation(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Facile", "3 punti"):
        await bot.press(chat, anna, tg.message(chat, menu_id), label)
    (sent,) = (await bot.say(chat, anna, "/abbandona")).of("sendMessage")
    prompt = tg.message(chat, sent.result["message_id"])
    assert prompt.button_texts[0] == "Vittoria semplice · 1 punto"
    # Early in a game nobody expects more than a single game: the computer accepts it.
    await bot.press(chat, anna, prompt, "Vittoria semplice · 1 punto")
    prompt = tg.message(chat, prompt.message_id)
    assert prompt.button_texts == []
    assert re.fullmatch(r"Anna abbandona: .+ vince 1 punto \(vittoria semplice\)\.", prompt.text)
    assert "Partita successiva" in bot.board(chat).button_texts
