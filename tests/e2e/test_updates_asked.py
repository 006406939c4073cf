"""The bot asks Telegram for the updates its handlers handle, and only people play.

Under the fake's allowed_updates filter (as strict as Telegram's) an inline query reaches
the bot started as production starts it; under privacy mode a command for another bot
never arrives, and one that does (the bot is an admin) is ignored. Anonymous group admins
and channel identities are told to write as themselves and never become players.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from bot.__main__ import _start_updates
from bot.adapters.places import inline_key
from bot.texts import messages as T

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .processes import free_port
from .test_inline import MEDIA_CHAT, play_inline_until, result_titled

SINGLE_CLASSIC = "Backgammon classico · Partita singola"


@pytest.fixture
def inline_on(tg: FakeTelegram) -> None:
    tg.channel(MEDIA_CHAT, "Tavole")
    tg.supports_inline_queries = True


@pytest.mark.parametrize("bot_options", [{"media_chat": MEDIA_CHAT}], ids=["inline on"])
async def test_an_inline_game_is_played_with_the_updates_production_asks_for(
    inline_on: None,  # first: set up before the bot starts
    bot: BotUnderTest,
    tg: FakeTelegram,
    anna: FakeUser,
    bruno: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Restart the bot's polling exactly as `python -m bot` starts it.
    assert bot.app is not None and bot.app.updater is not None
    await bot.app.updater.stop()
    since = len(tg.requests)
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await _start_updates(bot.app, bot.settings) is None  # no health port asked
    await bot._first_poll(since)

    answer = await bot.inline_query(anna, "")
    chat = FakeChat(bruno.id, "private", first_name=bruno.first_name)
    inline_id = tg.choose_inline_result(
        answer["id"], result_titled(answer, SINGLE_CLASSIC), chat, feedback=True
    )
    bot.dice.queue_opening(5, 3)
    accepted = await bot.press_inline(bruno, inline_id, "Accetta")
    assert accepted.alert is None
    final = await play_inline_until(bot, inline_id, (anna, bruno), {"Rivincita"})
    assert "vince" in (final.caption or "")
    assert await bot.repo.load_game(inline_key(inline_id)) is None  # finished and archived
    assert not [u for u in tg.dropped_updates if "inline_query" in u or "chosen_inline_result" in u]
    asked = "message, inline_query, chosen_inline_result, callback_query, my_chat_member"
    assert f"Tavola is running (polling; updates: {asked})" in caplog.text
    assert tg.allowed_updates == frozenset(asked.split(", "))


async def test_the_webhook_asks_for_the_same_updates(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, caplog: pytest.LogCaptureFixture
) -> None:
    assert bot.app is not None and bot.app.updater is not None
    await bot.app.updater.stop()
    port = free_port()
    webhook = replace(
        bot.settings, webhook_url=f"http://127.0.0.1:{port}", port=port, webhook_secret="s3cret"
    )
    with caplog.at_level(logging.INFO, logger="bot"):
        server = await _start_updates(bot.app, webhook)
    assert server is not None
    await server.stop()
    asked = ["message", "callback_query", "my_chat_member"]  # inline games are off here
    assert tg.webhook is not None and tg.webhook["allowed_updates"] == asked
    assert tg.allowed_updates == frozenset(asked)
    assert f":{port} (all interfaces), secret token required; updates: " in caplog.text
    assert "updates: message, callback_query, my_chat_member)" in caplog.text
    tg.inline_query(anna, "lungo")
    assert tg.pop_updates() == []  # never sent to the webhook


# -- who is a player ------------------------------------------------------------------------------


async def test_an_anonymous_admin_cannot_challenge_or_play(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    for command in ("/sfida", "/gioca", "/sfida@tavola_test_bot lungo", "/statistiche"):
        start = len(tg.requests)
        tg.send_as_anonymous_admin(group, command)
        await bot.idle()
        reaction = tg.calls(since=start)
        assert [r.method for r in reaction] == ["sendMessage"], command
        assert reaction[0].result["text"] == T.WRITE_AS_YOURSELF
        assert await bot.stored(group) is None

    # Read-only commands work for anyone.
    start = len(tg.requests)
    tg.send_as_anonymous_admin(group, "/regole")
    await bot.idle()
    assert T.WRITE_AS_YOURSELF not in str(tg.calls(since=start))

    # A move typed in reply to the board by an anonymous admin changes nothing.
    board = await start_match(bot, group, anna, bruno)
    before = (await bot.table(group)).state
    start = len(tg.requests)
    tg.send_as_anonymous_admin(group, "13/7 8/7", reply_to=board)
    await bot.idle()
    assert [r.result["text"] for r in tg.calls("sendMessage", since=start)] == [T.WRITE_AS_YOURSELF]
    assert (await bot.table(group)).state == before


async def test_a_channel_identity_cannot_challenge(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat
) -> None:
    channel = tg.channel(-100555, "Notizie del circolo")
    start = len(tg.requests)
    tg.send_as_channel(group, channel, "/sfida")
    await bot.idle()
    assert [r.result["text"] for r in tg.calls(since=start)] == [T.WRITE_AS_YOURSELF]
    assert await bot.stored(group) is None
    # The linked channel's own posts, forwarded to the group, are not for the bot at all.
    tg.add_bot_to_group(group, FakeUser(1, "Admin"), new="administrator")
    await bot.idle()
    start = len(tg.requests)
    tg.send_as_channel(group, channel, "/sfida lungo", automatic_forward=True)
    await bot.idle()
    assert [r.result["text"] for r in tg.calls(since=start)] == [T.WRITE_AS_YOURSELF]


async def test_a_command_for_another_bot_is_not_this_bots(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser
) -> None:
    # Privacy mode: Telegram does not even deliver it.
    reaction = await bot.say(group, anna, "/sfida@AltroBot")
    assert reaction.requests == []
    assert [u["message"]["text"] for u in tg.dropped_updates] == ["/sfida@AltroBot"]

    # As an administrator the bot sees it, and leaves it to the other bot.
    tg.add_bot_to_group(group, anna, new="administrator")
    await bot.idle()
    for text in ("/sfida@AltroBot", "/sfida@AltroBot lungo 3"):
        reaction = await bot.say(group, anna, text)
        assert reaction.requests == [], text
    anonymous = len(tg.requests)
    tg.send_as_anonymous_admin(group, "/sfida@AltroBot")
    await bot.idle()
    assert tg.calls(since=anonymous) == []
    assert await bot.stored(group) is None

    # Addressed to this bot by name, it opens the card.
    reaction = await bot.say(group, anna, "/sfida@tavola_test_bot lungo")
    (card,) = reaction.of("sendMessage")
    assert card.result["text"].startswith("Nuova sfida di Anna")


async def test_a_channel_post_is_nobody_to_challenge(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser
) -> None:
    channel = tg.channel(-100555, "Notizie del circolo")
    post = tg.send_as_channel(group, channel, "Torneo sabato!", automatic_forward=True)
    reaction = await bot.say(group, anna, "/sfida", reply_to=post)
    (card,) = reaction.of("sendMessage")
    text = card.result["text"]
    assert text.startswith("Nuova sfida di Anna") and "Telegram" not in text
    (challenge,) = await bot.repo.list_challenges(group.id)
    assert challenge.payload["to"] is None


@pytest.mark.parametrize("bot_options", [{"media_chat": MEDIA_CHAT}], ids=["inline on"])
async def test_a_card_posted_in_the_bots_own_chat_is_not_taken_for_a_message(
    inline_on: None, bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, group: FakeChat
) -> None:
    own = tg.private_chat(anna)
    for chat in (own, group):
        answer = await bot.inline_query(anna, "")
        start = len(tg.requests)
        tg.choose_inline_result(answer["id"], result_titled(answer, SINGLE_CLASSIC), chat)
        await bot.idle()
        assert tg.calls(since=start) == [], chat.type  # no help text, no "invalid move"
