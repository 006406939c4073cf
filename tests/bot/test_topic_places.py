"""Forum topics as places: their keys, and what an update in a topic is."""

from __future__ import annotations

from telegram import Chat, ForumTopicCreated, Message, Update, User

from bot.adapters import places
from bot.game.table import Player, Table
from bot.updates import chat_key
from engine import GameState, MatchConfig, Variant

ANNA = User(1, "Anna", is_bot=False)
MOD = User(2, "Moderatore", is_bot=False)
FORUM = Chat(-1001234, Chat.SUPERGROUP, is_forum=True)


def creation(thread: int) -> Message:
    return Message(
        thread,
        None,  # type: ignore[arg-type]
        FORUM,
        from_user=MOD,
        forum_topic_created=ForumTopicCreated("Tavolo", 7322096),
        message_thread_id=thread,
        is_topic_message=True,
    )


def in_topic(message_id: int, thread: int, reply_to: Message | None = None) -> Message:
    return Message(
        message_id,
        None,  # type: ignore[arg-type]
        FORUM,
        from_user=ANNA,
        text="/sfida",
        message_thread_id=thread,
        is_topic_message=True,
        reply_to_message=reply_to or creation(thread),
    )


def test_topic_keys_are_their_own_range_and_stable() -> None:
    key = places.topic_key(FORUM.id, 7)
    assert key == places.topic_key(FORUM.id, 7)
    assert key != places.topic_key(FORUM.id, 8) != places.topic_key(FORUM.id - 1, 7)
    assert places.is_topic_key(key) and not places.is_inline_key(key)
    assert places.TOPIC_KEY_BASE <= key < places.INLINE_KEY_BASE
    assert not places.is_topic_key(places.inline_key("AgAAAB"))
    assert not places.is_topic_key(FORUM.id) and not places.is_topic_key(10**12)


def test_an_update_in_a_topic_is_the_topics_place() -> None:
    topic = Update(1, message=in_topic(10, 7))
    general = Update(2, message=Message(11, None, FORUM, from_user=ANNA, text="x"))  # type: ignore[arg-type]
    place = places.of_update(topic)
    assert place is not None and place.is_topic
    assert (place.key, place.chat_id, place.thread_id) == (
        places.topic_key(FORUM.id, 7),
        FORUM.id,
        7,
    )
    assert place.send() == {"chat_id": FORUM.id, "message_thread_id": 7}
    assert place.limit_key == FORUM.id  # Telegram's budget is the group's
    assert chat_key(topic) == place.key
    assert chat_key(general) == FORUM.id
    assert places.of_game(place.key, None, (FORUM.id, 7)) == place
    assert places.of_game(FORUM.id, None, None) == places.Place.chat(FORUM.id)


def test_a_reply_to_the_topics_first_message_is_no_reply() -> None:
    assert places.real_reply(in_topic(10, 7)) is None
    answered = in_topic(12, 7, reply_to=in_topic(10, 7))
    replied = places.real_reply(answered)
    assert replied is not None and replied.message_id == 10


def test_a_table_records_its_topic() -> None:
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)),
        (Player(1, "Anna"), Player(2, "Bruno")),
        topic=(FORUM.id, 7),
    )
    assert Table.from_doc(table.to_doc()).topic == (FORUM.id, 7)
