"""Finding the way in: the greeting when the bot joins a group, /gioca in a group pointing
to the private chat, and a private /start that does not suggest a challenge there."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from bot.texts import messages as T

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeUser


async def test_added_to_a_group_the_bot_greets_with_two_lines_on_how_to_start(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    start = len(bot.tg.requests)
    bot.tg.add_bot_to_group(group, anna)
    await bot.idle()
    (sent,) = bot.tg.calls("sendMessage", since=start)
    assert sent.params["chat_id"] == group.id
    text = sent.result["text"]
    assert len(text.splitlines()) == 2
    assert "/sfida" in text and "/aiuto" in text

    # Made administrator later, or removed: no second greeting.
    again = len(bot.tg.requests)
    bot.tg.add_bot_to_group(group, anna, old="member", new="administrator")
    bot.tg.add_bot_to_group(group, anna, old="administrator", new="left")
    await bot.idle()
    assert bot.tg.calls("sendMessage", since=again) == []


async def test_play_command_in_a_group_answers_with_a_button_to_the_private_chat(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    reaction = await bot.say(group, anna, "/gioca")
    (sent,) = reaction.of("sendMessage")
    assert sent.result["text"] == T.PLAY_IN_PRIVATE
    (button,) = sent.result["reply_markup"]["inline_keyboard"][0]
    assert button["text"] == "Gioca in privato"
    link = urlparse(button["url"])
    assert (link.scheme, link.netloc, link.path) == ("https", "t.me", "/tavola_test_bot")
    (payload,) = parse_qs(link.query)["start"]

    # Telegram opens the private chat and sends "/start <payload>" there.
    private = bot.tg.private_chat(anna)
    (menu,) = (await bot.say(private, anna, f"/start {payload}")).of("sendMessage")
    assert menu.result["text"].startswith("Gioca col computer")
    buttons = [b["text"] for row in menu.result["reply_markup"]["inline_keyboard"] for b in row]
    assert buttons == ["Backgammon classico", "Backgammon lungo"]


async def test_private_start_points_to_the_computer_and_to_a_group_not_a_challenge_here(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    private = bot.tg.private_chat(anna)
    (text,) = (await bot.say(private, anna, "/start")).texts()
    assert "qui" not in text.lower().replace("qui puoi giocare contro il computer", "")
    assert "/gioca" in text and "gruppo" in text
    (text,) = (await bot.say(group, anna, "/start")).texts()
    assert "/sfida" in text and "gruppo" in text
