"""Words a player should never stumble on: names kept whole after "di", a backwards move
named as such, no "Mars" in a game where only Oin counts, one word for resigning."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser


async def test_settings_of_ivo_are_di_ivo(bot: BotUnderTest, tg: FakeTelegram) -> None:
    ivo = tg.user(105, "Ivo", "ivo")
    chat = tg.private_chat(ivo)
    (text,) = (await bot.say(chat, ivo, "/impostazioni")).texts()
    assert text.startswith("Impostazioni di Ivo")


async def test_a_move_typed_backwards_is_said_to_go_the_wrong_way(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    (text,) = (await bot.say(group, anna, "/mossa 1/7")).texts()
    assert "Non capisco" not in text
    assert text.startswith("1/7 va all'indietro") and "7/1" in text


async def test_a_game_where_only_oin_counts_never_says_mars(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "lungo oin 1")
    reaction = await bot.press(group, bruno, bot.board(group), "Abbandona")
    (sent,) = reaction.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    assert prompt.text == "🏳 Bruno, vuoi abbandonare? Anna vince 1 punto (Oin). Confermi?"
    await bot.press(group, bruno, prompt, "Sì, abbandono")
    caption = bot.board(group).caption or ""
    assert "Bruno abbandona: Anna vince 1 punto (Oin)." in caption
    assert "Mars" not in caption
