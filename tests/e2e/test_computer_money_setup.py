"""/gioca's money game (classic, "Libera") offers the Jacoby rule as a switch, on by
default, before the game starts."""

from __future__ import annotations

from engine import MatchConfig, Variant

from .conftest import BotUnderTest
from .fake_telegram import FakeTelegram, FakeUser

BACK = "« Indietro"


async def test_the_money_game_has_a_jacoby_switch_on_by_default(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    (sent,) = (await bot.say(chat, anna, "/gioca")).of("sendMessage")
    menu = tg.message(chat, sent.result["message_id"])
    for label in ("Backgammon classico", "Medio", "Libera"):
        reaction = await bot.press(chat, anna, menu, label)
        assert reaction.alert is None, reaction.alert
        menu = tg.message(chat, menu.message_id)
    assert await bot.stored(chat) is None  # not started yet: the Jacoby rule is asked
    assert "Durata: Partita libera" in (menu.text or "")
    assert "Regola Jacoby" in (menu.text or "")
    assert menu.button_texts == ["Jacoby: sì", "Inizia la partita", BACK]

    await bot.press(chat, anna, menu, "Jacoby: sì")
    menu = tg.message(chat, menu.message_id)
    assert menu.button_texts == ["Jacoby: no", "Inizia la partita", BACK]
    await bot.press(chat, anna, menu, BACK)
    menu = tg.message(chat, menu.message_id)
    assert "Quanti punti?" in (menu.text or "")
    await bot.press(chat, anna, menu, "Libera")
    menu = tg.message(chat, menu.message_id)
    assert menu.button_texts[0] == "Jacoby: sì"  # afresh, the default
    await bot.press(chat, anna, menu, "Jacoby: sì")
    await bot.press(chat, anna, tg.message(chat, menu.message_id), "Inizia la partita")
    table = await bot.table(chat)
    assert table.state.config == MatchConfig(Variant.CLASSIC, 0, jacoby=False)


async def test_the_money_game_starts_with_jacoby_on_when_left_as_shown(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    (sent,) = (await bot.say(chat, anna, "/gioca")).of("sendMessage")
    menu = tg.message(chat, sent.result["message_id"])
    for label in ("Backgammon classico", "Facile", "Libera", "Inizia la partita"):
        await bot.press(chat, anna, menu, label)
        menu = tg.message(chat, menu.message_id)
    table = await bot.table(chat)
    assert table.state.config == MatchConfig(Variant.CLASSIC, 0, jacoby=True)
    for data in ("p:classic:facile:0:m1", "p:classic:facile:3:j1", "p:classic:facile:0:j1:no"):
        reaction = await bot.press(chat, anna, menu, data=data, forge=True)
        assert reaction.alert is not None, data
