"""Where a table lives: a chat the bot writes in, or an inline message it may only edit.

A game played through inline mode sits in a message that someone posted "via" the bot in a
chat the bot may not even be a member of. Telegram names that message by an
``inline_message_id`` (a string) and gives no chat id with its button presses. Everything
keyed by a chat (the stored game, the turn timers, the board painter, update ordering) keys an
inline table by a number derived from that string instead, so those parts need not know the
difference; only sending and editing need it, and they ask a `Place`.

Derived keys start at 2**60: Telegram's chat ids (users, groups, channels) stay far below
2**53 in magnitude, so they never meet. Collisions between two inline messages would need
two of them among 2**56 hashes: negligible.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from telegram import Update

INLINE_KEY_BASE = 1 << 60
_INLINE_KEY_BITS = 56

#: The board of an inline table is the inline message itself: it has no message id of its
#: own, so storage records this one for it (and an open resign offer, shown on the board).
INLINE_BOARD_ID = 0


def inline_key(inline_message_id: str) -> int:
    """The number an inline message's table is stored and scheduled under."""
    digest = hashlib.sha256(inline_message_id.encode()).digest()
    return INLINE_KEY_BASE + (int.from_bytes(digest[:8], "big") >> (64 - _INLINE_KEY_BITS))


def is_inline_key(key: int) -> bool:
    return key >= INLINE_KEY_BASE


@dataclass(frozen=True, slots=True)
class Place:
    """A chat, or an inline message; ``key`` is what storage and the timers know it by."""

    key: int
    inline_message_id: str | None = None

    @classmethod
    def chat(cls, chat_id: int) -> Place:
        return cls(chat_id)

    @classmethod
    def inline(cls, inline_message_id: str) -> Place:
        return cls(inline_key(inline_message_id), inline_message_id)

    @property
    def is_inline(self) -> bool:
        return self.inline_message_id is not None

    @property
    def limit_key(self) -> int | str:
        """What the rate limiter budgets: the chat id, or the inline message (a "chat" of
        its own, with a group's budget: the people in it see every edit)."""
        return self.inline_message_id if self.inline_message_id is not None else self.key

    def message(self, message_id: int) -> dict[str, Any]:
        """The keyword arguments that name a message of this place in an edit."""
        if self.inline_message_id is not None:
            return {"inline_message_id": self.inline_message_id}
        return {"chat_id": self.key, "message_id": message_id}


def of_update(update: Update) -> Place | None:
    """Where an update happened: its inline message for a press on one, else its chat."""
    query = update.callback_query
    if query is not None and query.inline_message_id:
        return Place.inline(query.inline_message_id)
    chosen = update.chosen_inline_result  # a card just sent: the message it is in
    if chosen is not None and chosen.inline_message_id:
        return Place.inline(chosen.inline_message_id)
    if update.effective_chat is not None:
        return Place.chat(update.effective_chat.id)
    return None


def of_game(key: int, inline_message_id: str | None) -> Place:
    """The place of a stored game: its key, and the inline message its table records."""
    if inline_message_id is not None and is_inline_key(key):
        return Place(key, inline_message_id)
    return Place.chat(key)
