"""The fake Bot API delivers updates as Telegram does: only the allowed types, only what
privacy mode lets a bot see in groups, at least once and in order; and it keeps Telegram's
time limits, inline-message and file_id rules. Driven by the real PTB `Bot` over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
    Update,
)

from .fake_telegram import (
    ANSWER_MAX_AGE,
    CHANNEL_BOT_ID,
    DELETE_MAX_AGE,
    GROUP_ANONYMOUS_BOT_ID,
    TELEGRAM_SERVICE_ID,
    FakeChat,
    FakeTelegram,
    FakeUser,
)
from .ptb_client import alice_chat, alice_user, png, ptb_bot, refused  # noqa: F401 (fixtures)


@pytest.fixture
def group(tg: FakeTelegram) -> FakeChat:
    return tg.group(-100777, "Circolo", supergroup=True)


def kinds(updates: tuple[Update, ...]) -> list[str]:
    return [next(k for k in u.to_dict() if k != "update_id") for u in updates]


def texts(updates: tuple[Update, ...]) -> list[str | None]:
    return [u.effective_message.text if u.effective_message else None for u in updates]


async def confirm_all(bot: Bot, **kwargs: Any) -> tuple[Update, ...]:
    """Fetch what is pending (with any allowed_updates given) and confirm it."""
    updates = await bot.get_updates(timeout=0, **kwargs)
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    return updates


def reaction(chat: FakeChat, user: FakeUser) -> dict[str, Any]:
    return {
        "message_reaction": {
            "chat": chat.to_dict(),
            "message_id": 1,
            "user": user.to_dict(),
            "date": 0,
            "old_reaction": [],
            "new_reaction": [{"type": "emoji", "emoji": "👍"}],
        }
    }


# -- allowed_updates --------------------------------------------------------------------------


async def test_only_the_allowed_types_arrive_and_the_others_are_dropped_for_good(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    assert await confirm_all(bot, allowed_updates=["message", "callback_query"]) == ()
    tg.inline_query(alice, "lungo")  # not asked for: Telegram never creates it
    tg.send_message(chat, alice, "/start")
    updates = await confirm_all(bot)  # no parameter: the list stays in force
    assert kinds(updates) == ["message"]
    assert [update_kind(u) for u in tg.dropped_updates] == ["inline_query"]

    # Asking for inline queries now does not bring back the one dropped before.
    assert await confirm_all(bot, allowed_updates=["inline_query"]) == ()
    tg.send_message(chat, alice, "ciao")
    tg.inline_query(alice, "classico")
    updates = await confirm_all(bot)
    assert kinds(updates) == ["inline_query"]
    assert updates[0].inline_query is not None and updates[0].inline_query.query == "classico"


def update_kind(update: dict[str, Any]) -> str:
    return next(k for k in update if k != "update_id")


async def test_default_and_empty_list_send_all_but_member_and_reaction_updates(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, group: FakeChat, alice: FakeUser
) -> None:
    assert tg.allowed_updates is None  # before any call: Telegram's default
    tg.enqueue_update(reaction(chat, alice))
    tg.send_message(chat, alice, "/start")
    tg.inline_query(alice, "")
    tg.add_bot_to_group(group, alice)
    assert kinds(await confirm_all(bot)) == ["message", "inline_query", "my_chat_member"]

    await confirm_all(bot, allowed_updates=["message_reaction", "message"])
    tg.enqueue_update(reaction(chat, alice))
    assert kinds(await confirm_all(bot)) == ["message_reaction"]

    await confirm_all(bot, allowed_updates=[])  # empty: back to the default
    tg.enqueue_update(reaction(chat, alice))
    tg.send_message(chat, alice, "ciao")
    assert kinds(await confirm_all(bot)) == ["message"]
    assert [update_kind(u) for u in tg.dropped_updates] == ["message_reaction"] * 2


async def test_set_webhook_takes_allowed_updates_too(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    assert await bot.set_webhook("https://example.org/telegram", allowed_updates=["inline_query"])
    tg.send_message(chat, alice, "/start")
    tg.inline_query(alice, "lungo")
    assert [update_kind(u) for u in tg.pop_updates()] == ["inline_query"]
    assert await bot.set_webhook("https://example.org/telegram")  # leaves the list alone
    tg.send_message(chat, alice, "/start")
    assert tg.pop_updates() == []
    assert tg.allowed_updates == frozenset({"inline_query"})


async def test_unconfirmed_updates_come_again_in_update_id_order(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    for word in ("uno", "due", "tre"):
        tg.send_message(chat, alice, word)
    first = await bot.get_updates(timeout=0)
    ids = [u.update_id for u in first]
    assert ids == sorted(ids) and texts(first) == ["uno", "due", "tre"]
    # A poller that crashed before confirming sees the same updates again.
    again = await bot.get_updates(timeout=0)
    assert [u.update_id for u in again] == ids
    # Confirming the first one (offset = its id + 1) leaves the others.
    rest = await bot.get_updates(offset=ids[0] + 1, timeout=0, limit=1)
    assert [u.update_id for u in rest] == [ids[1]]
    assert tg.pending_updates == 2


# -- privacy mode -------------------------------------------------------------------------------


async def test_privacy_mode_hides_group_chatter_but_not_commands_replies_service(
    bot: Bot, tg: FakeTelegram, group: FakeChat, alice: FakeUser
) -> None:
    board = await bot.send_message(group.id, "La tavola")
    someone = tg.send_message(group, alice, "chi gioca?")  # chatter: hidden
    tg.send_message(group, alice, "/sfida lungo")  # a command: seen
    tg.send_message(group, alice, "/sfida@AltroBot")  # for another bot: hidden
    tg.send_message(group, alice, "/sfida@Tavola_Test_Bot 3")  # for this bot: seen
    tg.send_message(group, alice, "ciao /sfida")  # not a command message: hidden
    tg.send_message(group, alice, "13/7 8/7", reply_to=board.message_id)  # reply to it: seen
    tg.send_message(group, alice, "anch'io", reply_to=someone)  # reply to someone: hidden
    member = {"chat": group.to_dict(), "from": alice.to_dict(), "date": 0, "message_id": 99}
    tg.enqueue_update({"message": {**member, "new_chat_members": [alice.to_dict()]}})
    private = tg.private_chat(alice)
    tg.send_message(private, alice, "in privato si vede tutto")

    updates = await confirm_all(bot)
    assert texts(updates) == [
        "/sfida lungo",
        "/sfida@Tavola_Test_Bot 3",
        "13/7 8/7",
        None,  # the service message
        "in privato si vede tutto",
    ]
    assert updates[3].message is not None and updates[3].message.new_chat_members
    assert [u["message"]["text"] for u in tg.dropped_updates] == [
        "chi gioca?",
        "/sfida@AltroBot",
        "ciao /sfida",
        "anch'io",
    ]


async def test_an_admin_bot_or_privacy_off_sees_everything_but_other_bots(
    bot: Bot, tg: FakeTelegram, group: FakeChat, alice: FakeUser
) -> None:
    other = tg.other_bot(555, "Altro", "AltroBot")
    tg.add_bot_to_group(group, alice, new="administrator")
    tg.send_message(group, alice, "chi gioca?")
    tg.send_message(group, alice, "/sfida@AltroBot")
    tg.other_bot_writes(group, other, "/sfida@tavola_test_bot")  # bots do not see bots
    assert texts(await confirm_all(bot)) == [None, "chi gioca?", "/sfida@AltroBot"]

    plain = tg.group(-100888, "Bar")
    tg.privacy_mode = False  # /setprivacy Disable
    tg.send_message(plain, alice, "buonasera")
    assert texts(await confirm_all(bot)) == ["buonasera"]


async def test_a_general_command_goes_to_the_bot_that_wrote_last(
    bot: Bot, tg: FakeTelegram, group: FakeChat, alice: FakeUser
) -> None:
    other = tg.other_bot(555, "Altro", "AltroBot")
    tg.other_bot_writes(group, other, "Benvenuti")
    tg.send_message(group, alice, "/start")  # Altro wrote last: it is Altro's
    tg.send_message(group, alice, "/start@tavola_test_bot")
    assert texts(await confirm_all(bot)) == ["/start@tavola_test_bot"]
    await bot.send_message(group.id, "Eccomi")
    tg.send_message(group, alice, "/start")
    assert texts(await confirm_all(bot)) == ["/start"]


# -- anonymous administrators and channels ------------------------------------------------------


async def test_anonymous_admins_and_channels_write_with_sender_chat(
    bot: Bot, tg: FakeTelegram, group: FakeChat
) -> None:
    channel = tg.channel(-100999, "Notizie")
    tg.send_as_anonymous_admin(group, "/sfida")
    tg.send_as_channel(group, channel, "/gioca")
    tg.send_as_channel(group, channel, "Nuovo articolo", automatic_forward=True)
    updates = await confirm_all(bot)
    admin, as_channel = (u.message for u in updates)
    assert admin is not None and as_channel is not None
    assert admin.from_user is not None and admin.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert admin.from_user.is_bot and admin.from_user.username == "GroupAnonymousBot"
    assert admin.sender_chat is not None and admin.sender_chat.id == group.id
    assert as_channel.from_user is not None and as_channel.from_user.id == CHANNEL_BOT_ID
    assert as_channel.from_user.username == "Channel_Bot"
    assert as_channel.sender_chat is not None and as_channel.sender_chat.id == channel.id
    # The linked channel's post is chatter: privacy mode hides it (seen when admin).
    (forward,) = tg.dropped_updates
    assert forward["message"]["from"]["id"] == TELEGRAM_SERVICE_ID
    assert forward["message"]["is_automatic_forward"] is True
    assert forward["message"]["sender_chat"]["id"] == channel.id


# -- time limits --------------------------------------------------------------------------------


async def test_a_callback_query_must_be_answered_within_15_seconds(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    assert tg.answer_max_age == ANSWER_MAX_AGE == 15.0  # on by default, as on Telegram
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Tira", callback_data="roll")]])
    sent = await bot.send_message(chat.id, "Partita", reply_markup=markup)
    late = tg.press(chat, alice, sent.message_id, "roll")
    tg.advance_clock(ANSWER_MAX_AGE + 1)
    with refused("query is too old and response timeout expired"):
        await bot.answer_callback_query(late)
    in_time = tg.press(chat, alice, sent.message_id, "roll")
    tg.advance_clock(ANSWER_MAX_AGE - 1)
    assert await bot.answer_callback_query(in_time)


async def test_a_message_older_than_48_hours_cannot_be_deleted(
    bot: Bot, tg: FakeTelegram, group: FakeChat
) -> None:
    old = await bot.send_message(group.id, "Ieri l'altro")
    tg.advance_clock(DELETE_MAX_AGE + 1)
    recent = await bot.send_message(group.id, "Oggi")
    with refused("message can't be deleted"):
        await bot.delete_message(group.id, old.message_id)
    assert not tg.message(group, old.message_id).deleted
    assert await bot.delete_message(group.id, recent.message_id)
    assert recent.date.timestamp() >= old.date.timestamp() + DELETE_MAX_AGE


# -- inline messages and file ids ---------------------------------------------------------------


async def test_an_inline_message_takes_a_photo_by_file_id_never_by_upload(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    query_id = tg.inline_query(alice, "")
    result = InlineQueryResultArticle(
        "1",
        "Sfida",
        InputTextMessageContent("Alice cerca un avversario"),
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("Accetta", callback_data="a")]]),
    )
    assert await bot.answer_inline_query(query_id, [result])
    inline_id = tg.choose_inline_result(query_id, "1", chat)
    with refused("a new file can't be uploaded to an inline message"):
        await bot.edit_message_media(InputMediaPhoto(png("red")), inline_message_id=inline_id)
    stored = await bot.send_photo(chat.id, png("blue"))
    assert await bot.edit_message_media(
        InputMediaPhoto(stored.photo[-1].file_id), inline_message_id=inline_id
    )
    assert tg.inline_message(inline_id).photo == png("blue")


async def test_a_file_id_belongs_to_the_bot_that_received_it(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    async with (
        FakeTelegram("456:DEF") as other_tg,
        Bot(other_tg.token, base_url=other_tg.base_url) as other,
    ):
        other_chat = other_tg.private_chat(other_tg.user(1001, "Alice"))
        theirs = (await other.send_photo(other_chat.id, png("green"))).photo[-1].file_id
        mine = (await bot.send_photo(chat.id, png("green"))).photo[-1].file_id
        assert theirs != mine
        with refused("wrong file identifier"):
            await bot.send_photo(chat.id, theirs)
        assert await bot.send_photo(chat.id, mine)


async def test_a_message_posted_via_the_bot_reaches_it_where_it_is_a_member(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, group: FakeChat, alice: FakeUser
) -> None:
    bruno = tg.user(1002, "Bruno")
    result = InlineQueryResultArticle("1", "Sfida", InputTextMessageContent("Alice sfida"))
    posted = []
    for where in (chat, group, FakeChat(bruno.id, "private", first_name="Bruno")):
        query_id = tg.inline_query(alice, "")
        await confirm_all(bot)
        assert await bot.answer_inline_query(query_id, [result])
        tg.choose_inline_result(query_id, "1", where)
        posted += [u.message for u in await confirm_all(bot) if u.message]
    # Alice's own chat with the bot and a group of the bot: yes; her chat with Bruno: no.
    assert [m.chat.id for m in posted] == [chat.id, group.id]
    assert all(m.via_bot and m.via_bot.id == tg.bot_user.id for m in posted)
    assert all(m.text == "Alice sfida" for m in posted)


async def test_a_press_on_an_inline_message_carries_its_id_and_no_message(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    bruno = tg.user(1002, "Bruno")
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Accetta", callback_data="a")]])
    result = InlineQueryResultArticle(
        "1", "Sfida", InputTextMessageContent("Alice sfida"), reply_markup=markup
    )
    query_id = tg.inline_query(alice, "")
    await confirm_all(bot)
    assert await bot.answer_inline_query(query_id, [result])
    inline_id = tg.choose_inline_result(query_id, "1", FakeChat(bruno.id, "private"))
    press = tg.press_inline(bruno, inline_id, "a")
    (update,) = await confirm_all(bot)
    assert update.callback_query is not None
    assert update.callback_query.inline_message_id == inline_id
    assert update.callback_query.message is None
    assert await bot.answer_callback_query(press)
    # Edited by its id (the Bot API answers True, not a Message), never by chat and id.
    assert await bot.edit_message_text("Accettata", inline_message_id=inline_id) is True
    with refused("message to edit not found"):
        await bot.edit_message_text("No", chat_id=bruno.id, message_id=1)
