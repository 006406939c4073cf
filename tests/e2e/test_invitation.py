"""Inviting from a private chat: /sfida there answers with a ?startgroup= deep link, and the
/start message Telegram then sends in the chosen group opens the challenge there."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeUser


async def test_private_challenge_gives_a_group_link_that_opens_the_challenge_there(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    private = bot.tg.private_chat(anna)
    reaction = await bot.say(private, anna, "/sfida lungo 3 oin 5m")
    (sent,) = reaction.of("sendMessage")
    assert "Sfida un amico" in sent.result["text"]
    (button,) = sent.result["reply_markup"]["inline_keyboard"][0]
    link = urlparse(button["url"])
    assert (link.netloc, link.path) == ("t.me", f"/{bot.tg.bot_user.username}")
    (payload,) = parse_qs(link.query)["startgroup"]
    assert payload == "sfida_lungo_3_oin_5m"

    # Telegram posts "/start <payload>" in the group the user picked, as that user.
    (card_text,) = (await bot.say(group, anna, f"/start {payload}")).texts()
    assert "cerca un avversario" in card_text
    assert "Serie a 3 punti" in card_text and "Oin" in card_text and "5 minuti" in card_text
    card = bot.tg.last_bot_message(group)
    await bot.press(group, bruno, card, "Accetta")
    assert "Backgammon lungo" in (bot.board(group).caption or "")


async def test_private_challenge_with_bad_options_explains_and_gives_no_link(
    bot: BotUnderTest, anna: FakeUser
) -> None:
    private = bot.tg.private_chat(anna)
    (text,) = (await bot.say(private, anna, "/sfida lungo pizza")).texts()
    assert text.startswith("Non conosco «pizza»")


async def test_plain_start_in_a_group_still_greets(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    (text,) = (await bot.say(group, anna, "/start")).texts()
    assert text.startswith("Ciao")
    (text,) = (await bot.say(group, anna, "/start qualcosa")).texts()
    assert text.startswith("Ciao")
