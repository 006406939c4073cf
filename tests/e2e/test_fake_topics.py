"""The fake Bot API's forum supergroups: topics, their messages, and sends into them.

Telegram's behaviour pinned here: a message in a topic carries ``message_thread_id`` and
``is_topic_message`` and replies to the topic's creation message unless it replies to
another one; a bot message without ``message_thread_id`` lands in General unless it replies
to a topic message; a closed topic answers "TOPIC_CLOSED", a deleted one "message thread
not found"; a press on a topic message carries the message with its thread.
"""

from __future__ import annotations

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters

from .fake_telegram import FakeChat, FakeTelegram, FakeTelegramUsageError, FakeTopic, FakeUser
from .ptb_client import (
    ptb_bot,  # noqa: F401 (fixtures)
    refused,
)


@pytest.fixture
def mod(tg: FakeTelegram) -> FakeUser:
    return tg.user(1001, "Moderatore", "moderatore")


@pytest.fixture
def forum(tg: FakeTelegram) -> FakeChat:
    return tg.group(-1001234, "Circolo", supergroup=True, forum=True)


@pytest.fixture
def topic(tg: FakeTelegram, forum: FakeChat, mod: FakeUser) -> FakeTopic:
    return tg.create_topic(forum, mod, "Tavolo 1")


async def test_forum_chat_and_topic_creation(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic
) -> None:
    updates = await bot.get_updates(timeout=0)
    created = updates[-1].message
    assert created is not None
    assert created.chat.is_forum is True
    assert created.forum_topic_created is not None
    assert created.forum_topic_created.name == "Tavolo 1"
    assert created.message_thread_id == created.message_id == topic.thread_id
    assert created.is_topic_message is True
    assert tg.group(-1009, "Bar", supergroup=True).to_dict().get("is_forum") is None
    with pytest.raises(FakeTelegramUsageError):
        tg.group(-9, "Piccolo", forum=True)  # only supergroups have topics


async def test_user_message_in_topic_replies_to_its_creation(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic, mod: FakeUser
) -> None:
    tg.privacy_mode = False  # the bot sees the chatter too, not only commands
    bruno = tg.user(1002, "Bruno", "bruno")
    first = tg.send_message(forum, bruno, "/sfida @carla", topic=topic)
    answer = tg.send_message(forum, mod, "ciao", reply_to=first, topic=topic)
    general = tg.send_message(forum, bruno, "nel generale")
    updates = await bot.get_updates(timeout=0)
    by_id = {u.message.message_id: u.message for u in updates if u.message is not None}
    plain, reply, outside = (
        by_id[first.message_id],
        by_id[answer.message_id],
        by_id[general.message_id],
    )
    assert plain.message_thread_id == topic.thread_id and plain.is_topic_message
    assert plain.reply_to_message is not None
    assert plain.reply_to_message.message_id == topic.thread_id
    assert plain.reply_to_message.forum_topic_created is not None
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == first.message_id
    assert outside.message_thread_id is None and not outside.is_topic_message
    assert outside.reply_to_message is None


async def test_bot_sends_land_in_general_unless_threaded_or_replying(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic, mod: FakeUser
) -> None:
    asked = tg.send_message(forum, mod, "/partita", topic=topic)
    general = await bot.send_message(forum.id, "nel generale")
    threaded = await bot.send_message(forum.id, "nel tavolo", message_thread_id=topic.thread_id)
    replied = await bot.send_message(
        forum.id, "risposta", reply_parameters=ReplyParameters(asked.message_id)
    )
    old_style = await bot.send_message(forum.id, "risposta", reply_to_message_id=asked.message_id)
    assert general.message_thread_id is None
    assert tg.message(forum, general.message_id).thread_id is None
    for sent in (threaded, replied, old_style):
        assert sent.message_thread_id == topic.thread_id and sent.is_topic_message
        assert tg.message(forum, sent.message_id).thread_id == topic.thread_id
    assert threaded.reply_to_message is not None
    assert threaded.reply_to_message.message_id == topic.thread_id
    assert [m.message_id for m in tg.topic_messages(topic, from_bot=True)] == [
        threaded.message_id,
        replied.message_id,
        old_style.message_id,
    ]


async def test_photos_and_documents_follow_the_thread(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic
) -> None:
    from .test_fake_telegram import png

    photo = await bot.send_photo(forum.id, png("white"), message_thread_id=topic.thread_id)
    doc = await bot.send_document(
        forum.id, b"1. 31 31", filename="partita.txt", message_thread_id=topic.thread_id
    )
    assert tg.message(forum, photo.message_id).thread_id == topic.thread_id
    assert tg.message(forum, doc.message_id).thread_id == topic.thread_id


async def test_closed_topic_refuses_sends_until_reopened(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic, mod: FakeUser
) -> None:
    board = await bot.send_message(forum.id, "tavola", message_thread_id=topic.thread_id)
    tg.close_topic(topic, mod)
    with refused("TOPIC_CLOSED"):
        await bot.send_message(forum.id, "x", message_thread_id=topic.thread_id)
    with refused("TOPIC_CLOSED"):
        await bot.send_message(forum.id, "x", reply_to_message_id=board.message_id)
    await bot.send_message(forum.id, "il generale resta aperto")
    tg.reopen_topic(topic, mod)
    await bot.send_message(forum.id, "di nuovo", message_thread_id=topic.thread_id)
    kinds = [next(iter(m.service), None) for m in tg.topic_messages(topic) if not m.sender.is_bot]
    assert kinds == ["forum_topic_created", "forum_topic_closed", "forum_topic_reopened"]


async def test_deleted_or_unknown_topic_is_not_found(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic
) -> None:
    board = await bot.send_message(forum.id, "tavola", message_thread_id=topic.thread_id)
    tg.delete_topic(topic)
    assert tg.message(forum, board.message_id).deleted
    with refused("message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=topic.thread_id)
    with refused("message to edit not found"):
        await bot.edit_message_text("y", chat_id=forum.id, message_id=board.message_id)
    with refused("message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=1)  # General has no thread id
    bar = tg.group(-1009, "Bar", supergroup=True)
    with refused("message thread not found"):
        await bot.send_message(bar.id, "x", message_thread_id=topic.thread_id)


async def test_press_on_topic_message_carries_its_thread(
    tg: FakeTelegram, bot: Bot, forum: FakeChat, topic: FakeTopic, mod: FakeUser
) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Tira", callback_data="roll")]])
    board = await bot.send_message(
        forum.id, "tavola", message_thread_id=topic.thread_id, reply_markup=markup
    )
    await bot.get_updates(timeout=0)
    tg.press(forum, mod, board.message_id, "roll")
    updates = await bot.get_updates(offset=-1, timeout=0)
    query = updates[-1].callback_query
    assert query is not None and query.message is not None
    assert query.message.message_id == board.message_id
    assert query.message.message_thread_id == topic.thread_id  # type: ignore[union-attr]
    assert query.message.is_topic_message  # type: ignore[union-attr]
