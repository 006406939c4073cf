"""The set-up of a game against the computer (/gioca in private): every step can go back,
the choices made so far stay in view, and long offers its scoring and last roll."""

from __future__ import annotations

from engine import MatchConfig, Variant

from .conftest import BotUnderTest
from .fake_telegram import FakeTelegram, FakeUser, StoredMessage

BACK = "« Indietro"


async def _menu(bot: BotUnderTest, tg: FakeTelegram, user: FakeUser) -> StoredMessage:
    chat = tg.private_chat(user)
    (sent,) = (await bot.say(chat, user, "/gioca")).of("sendMessage")
    return tg.message(chat, sent.result["message_id"])


async def _press(
    bot: BotUnderTest, user: FakeUser, menu: StoredMessage, label: str
) -> StoredMessage:
    reaction = await bot.press(menu.chat, user, menu, label)
    assert reaction.alert is None, reaction.alert
    return bot.tg.message(menu.chat, menu.message_id)


async def test_every_step_goes_back_and_shows_the_choices_so_far(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    menu = await _menu(bot, tg, anna)
    first = menu.text
    assert first == "Gioca col computer\nScegli il gioco."
    menu = await _press(bot, anna, menu, "Backgammon classico")
    assert "Gioco: Backgammon classico" in (menu.text or "")
    assert BACK in menu.button_texts
    menu = await _press(bot, anna, menu, "Difficile")
    assert "Livello: Difficile" in (menu.text or "")
    assert "Quanti punti?" in (menu.text or "")

    menu = await _press(bot, anna, menu, BACK)  # back to the level
    assert "Scegli il livello." in (menu.text or "")
    assert "Livello:" not in (menu.text or "")
    menu = await _press(bot, anna, menu, BACK)  # back to the game
    assert menu.text == first
    assert menu.button_texts == ["Backgammon classico", "Backgammon lungo"]

    menu = await _press(bot, anna, menu, "Backgammon classico")
    menu = await _press(bot, anna, menu, "Medio")
    await _press(bot, anna, menu, "3 punti")  # classic starts at once
    table = await bot.table(tg.private_chat(anna))
    assert table.state.config == MatchConfig(Variant.CLASSIC, 3)
    assert table.ai_level == "medio"


async def test_long_offers_scoring_and_last_roll_before_starting(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    menu = await _menu(bot, tg, anna)
    for label in ("Backgammon lungo", "Facile", "3 punti"):
        menu = await _press(bot, anna, menu, label)
    assert await bot.stored(chat) is None
    text = menu.text or ""
    assert "Gioco: Backgammon lungo" in text and "Livello: Facile" in text
    assert "Serie a 3 punti" in text
    assert menu.button_texts == [
        "Punteggio: Mars",
        "Ultimo lancio: no",
        "Inizia la partita",
        BACK,
    ]
    menu = await _press(bot, anna, menu, "Punteggio: Mars")
    menu = await _press(bot, anna, menu, "Ultimo lancio: no")
    assert menu.button_texts[:2] == ["Punteggio: Oin", "Ultimo lancio: sì"]
    menu = await _press(bot, anna, menu, BACK)
    assert "Quanti punti?" in (menu.text or "")
    menu = await _press(bot, anna, menu, "5 punti")
    assert menu.button_texts[:2] == ["Punteggio: Mars", "Ultimo lancio: no"]  # afresh
    menu = await _press(bot, anna, menu, "Punteggio: Mars")
    menu = await _press(bot, anna, menu, "Ultimo lancio: no")
    await _press(bot, anna, menu, "Inizia la partita")
    table = await bot.table(chat)
    assert table.state.config == MatchConfig(Variant.LONG, 5, mars=False, last_roll=True)
    assert menu.text == "Anna contro il Computer (Facile). Buona partita!"


async def test_forged_set_up_data_is_refused(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    menu = await _menu(bot, tg, anna)
    for data in (
        "p:classic:facile:3:m0:go",
        "p:long:facile:3:x1",
        "p:long:facile:3:m0:no",
        "p:long:facile:03",
        "p:long:facile:4",
        "p:long:facile:3:m0:go:go",
        "p:chess",
    ):
        reaction = await bot.press(menu.chat, anna, menu, data=data, forge=True)
        assert reaction.alert == "Questo pulsante non è più valido.", data
    assert await bot.stored(tg.private_chat(anna)) is None
