"""Where a table lives: a chat the bot writes in, a topic of a forum group, or an inline
message it may only edit.

A game played through inline mode sits in a message that someone posted "via" the bot in a
chat the bot may not even be a member of. Telegram names that message by an
``inline_message_id`` (a string) and gives no chat id with its button presses. Everything
keyed by a chat (the stored game, the turn timers, the board painter, update ordering) keys an
inline table by a number derived from that string instead, so those parts need not know the
difference; only sending and editing need it, and they ask a `Place`.

Derived keys start at 2**60: Telegram's chat ids (users, groups, channels) stay far below
2**53 in magnitude, so they never meet. Collisions between two inline messages would need
two of them among 2**56 hashes: negligible.

A forum supergroup's topics are tables of their own: each topic is a place, so two topics of
one group host two games at once. A topic is keyed by a number derived from (chat id, thread
id) in the range [2**59, 2**60): below the inline keys, far above any chat id. The General
topic and chats without topics keep the chat id as their key. A topic's key cannot be turned
back into its chat, so a game in a topic records its (chat id, thread id) in its table, as an
inline table records its message, and every send to a topic carries ``message_thread_id``.
What belongs to a group rather than a table (its leaderboard, its statistics, its settings)
stays keyed by the chat id: a group's leaderboard covers all its topics. So does Telegram's
budget of messages (``limit_key``): it counts per group, whatever the topic. Whatever
concerns a whole group (it moved, it removed the bot) finds its topics in storage:
``GameRepository.topics_of(chat id)`` maps the key of every topic that hosted a challenge
or a game to its thread id (``Place.topic`` rebuilds the place).

A group or a topic is a room that hosts several tables at once (a person sits at one table
per room). The room's own key is its first table; each further table is a place of its own,
keyed by a number derived from (room key, table number) in [2**58, 2**59) that shares its
room's hash slot (``storage.keys.table_place``): its own stored game, timers, painter queue.
Such a table records its group (and topic) as a topic's table does, and sends to the room.
Challenges, budgets, leaderboards and settings stay the room's; ``GameRepository.tables``
indexes who sits at which table.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from telegram import Message, Update

from storage.keys import is_table_key, table_place

INLINE_KEY_BASE = 1 << 60
_INLINE_KEY_BITS = 56

TOPIC_KEY_BASE = 1 << 59
_TOPIC_KEY_BITS = 58

#: The board of an inline table is the inline message itself: it has no message id of its
#: own, so storage records this one for it (and an open resign offer, shown on the board).
INLINE_BOARD_ID = 0


def inline_key(inline_message_id: str) -> int:
    """The number an inline message's table is stored and scheduled under."""
    digest = hashlib.sha256(inline_message_id.encode()).digest()
    return INLINE_KEY_BASE + (int.from_bytes(digest[:8], "big") >> (64 - _INLINE_KEY_BITS))


def is_inline_key(key: int) -> bool:
    return key >= INLINE_KEY_BASE


def topic_key(chat_id: int, thread_id: int) -> int:
    """The number a forum topic's table is stored and scheduled under."""
    digest = hashlib.sha256(f"topic:{chat_id}:{thread_id}".encode()).digest()
    return TOPIC_KEY_BASE + (int.from_bytes(digest[:8], "big") >> (64 - _TOPIC_KEY_BITS))


def is_topic_key(key: int) -> bool:
    return TOPIC_KEY_BASE <= key < INLINE_KEY_BASE


#: What Telegram answers a send into a topic it closed or that was deleted.
_TOPIC_GONE = ("topic_closed", "message thread not found")


def topic_gone(error: Exception) -> bool:
    """Is ``error`` Telegram's refusal to send into a closed or deleted forum topic?"""
    text = str(error).lower()
    return any(marker in text for marker in _TOPIC_GONE)


@dataclass(frozen=True, slots=True)
class Place:
    """A chat, a forum topic, or an inline message; ``key`` is what storage and the timers
    know it by."""

    key: int
    inline_message_id: str | None = None
    thread_id: int | None = None  # a forum topic: its message_thread_id
    topic_chat_id: int | None = None  # a forum topic, or a further table: its group
    room: int | None = None  # a further table: the key of its room (a group, a topic)

    @classmethod
    def chat(cls, chat_id: int) -> Place:
        return cls(chat_id)

    @classmethod
    def inline(cls, inline_message_id: str) -> Place:
        return cls(inline_key(inline_message_id), inline_message_id)

    @classmethod
    def topic(cls, chat_id: int, thread_id: int) -> Place:
        return cls(topic_key(chat_id, thread_id), thread_id=thread_id, topic_chat_id=chat_id)

    @classmethod
    def table(cls, room: Place, number: int) -> Place:
        """The table ``number`` of a group or a topic ``room``: 0 is the room itself."""
        if number == 0 or room.is_inline:
            return room
        return cls(
            table_key(room.key, number),
            thread_id=room.thread_id,
            topic_chat_id=room.chat_id,
            room=room.key,
        )

    @property
    def room_key(self) -> int:
        """The key of the room this place is a table of (its own key for a room)."""
        return self.key if self.room is None else self.room

    @property
    def is_inline(self) -> bool:
        return self.inline_message_id is not None

    @property
    def is_topic(self) -> bool:
        return self.thread_id is not None and self.topic_chat_id is not None

    @property
    def chat_id(self) -> int:
        """The chat to send to: a topic's group, else the key itself (not for inline)."""
        return self.topic_chat_id if self.topic_chat_id is not None else self.key

    @property
    def topic_ref(self) -> tuple[int, int] | None:
        """(chat id, thread id) of a topic, as its table records it; None elsewhere."""
        if self.topic_chat_id is None or self.thread_id is None:
            return None
        return (self.topic_chat_id, self.thread_id)

    def send(self) -> dict[str, Any]:
        """The keyword arguments that send a new message here (a topic's thread included)."""
        return {"chat_id": self.chat_id, "message_thread_id": self.thread_id}

    @property
    def limit_key(self) -> int | str:
        """What the rate limiter budgets: the chat id, or the inline message (a "chat" of
        its own, with a group's budget: the people in it see every edit)."""
        return self.inline_message_id if self.inline_message_id is not None else self.chat_id

    def message(self, message_id: int) -> dict[str, Any]:
        """The keyword arguments that name a message of this place in an edit."""
        if self.inline_message_id is not None:
            return {"inline_message_id": self.inline_message_id}
        return {"chat_id": self.chat_id, "message_id": message_id}


def of_update(update: Update) -> Place | None:
    """Where an update happened: its inline message for a press on one, else its chat."""
    query = update.callback_query
    if query is not None and query.inline_message_id:
        return Place.inline(query.inline_message_id)
    chosen = update.chosen_inline_result  # a card just sent: the message it is in
    if chosen is not None and chosen.inline_message_id:
        return Place.inline(chosen.inline_message_id)
    if update.effective_chat is not None:
        thread = topic_thread(update.effective_message)
        if thread is not None:
            return Place.topic(update.effective_chat.id, thread)
        return Place.chat(update.effective_chat.id)
    return None


def topic_thread(message: object) -> int | None:
    """The forum topic a message was sent in (None: not in a topic, or in General).

    Only ``is_topic_message`` tells a topic: outside forums a reply carries a
    ``message_thread_id`` too (the thread of replies), and General's messages carry none.
    A message too old for Telegram to show (an inaccessible one) tells nothing.
    """
    if not isinstance(message, Message) or not message.is_topic_message:
        return None
    return message.message_thread_id


def real_reply(message: Message) -> Message | None:
    """The message ``message`` answers, if the user replied to one.

    In a forum topic Telegram sets ``reply_to_message`` to the topic's first message (the
    one that created it) on every message, replied or not: that one is no reply at all.
    """
    replied = message.reply_to_message
    if replied is None:
        return None
    if message.is_topic_message and (
        replied.forum_topic_created is not None or replied.message_id == message.message_thread_id
    ):
        return None
    return replied


def table_key(room: int, number: int) -> int:
    """The key of the further table ``number`` (1, 2, ...) of the room ``room``."""
    digest = hashlib.sha256(f"table:{room}:{number}".encode()).digest()
    return table_place(room, int.from_bytes(digest[:8], "big"))


def of_game(
    key: int,
    inline_message_id: str | None,
    topic: tuple[int, int] | None = None,
    group: int | None = None,
) -> Place:
    """The place of a stored game: its key, and the inline message, the forum topic or the
    group (a further table's, ``group``) its table records."""
    if inline_message_id is not None and is_inline_key(key):
        return Place(key, inline_message_id)
    if is_table_key(key) and (topic is not None or group is not None):
        if topic is not None:
            return Place(key, thread_id=topic[1], topic_chat_id=topic[0], room=topic_key(*topic))
        assert group is not None
        return Place(key, topic_chat_id=group, room=group)
    if topic is not None and is_topic_key(key):
        return Place.topic(*topic)
    return Place.chat(key)


def of_chat(chat_id: int, threads: Iterable[int] = ()) -> list[Place]:
    """Every place of a chat: what a kick, a block or a migration concerns as a whole.

    The chat itself, and the forum topics (``threads``, as storage knows them from
    ``topics_of``) that are places of their own: whatever applies to a whole chat reaches
    them through this."""
    return [Place.chat(chat_id), *(Place.topic(chat_id, thread) for thread in threads)]
