"""Key names: every key of the bot lives under one versioned prefix (``tavola:v1``), and is
laid out for Redis Cluster as well as for a single server.

Cluster layout. A Lua script or a MULTI may only touch keys of one hash slot, and the slot of
a key is that of its hash tag (the text between the first ``{`` and ``}``). So:

- Every key of one place (a chat, a forum topic or an inline message: the repository's
  ``chat_id``) carries the tag of the place's **shard**, ``{s:N}`` with
  ``N = crc32(place) mod TIMER_SHARDS``. The shard also holds that shard's timer sets
  (deadlines, reminders, their leases) and its pending statistics, so a move's save writes
  the game and its turn deadline in one atomic script, and a worker claims due timers shard
  by shard. ``TIMER_SHARDS`` is part of the layout: changing it moves every place's keys.
- Every key of one player (settings, statistics, the marks of results already counted)
  carries the player's tag ``{u:ID}``.
- Everything else (the name index, the global leaderboards, the id sequences, update and card
  markers) is one key per operation, with no tag: each is written by a single-key command.

The previous layout (no tags: ``tavola:v1:game:<chat>``, one global ``deadlines`` set...) is
moved to this one by :meth:`storage.repository.GameRepository.migrate_key_layout` at start-up.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

#: How many shards the places (and their timers) are spread over: each shard is one hash
#: slot of a cluster. A worker polls every shard for due timers (``2 * TIMER_SHARDS`` cheap
#: scripts per poll), and a cluster spreads the places over at most this many slots.
TIMER_SHARDS = 16
#: Version of the key layout, stored under :meth:`Keys.layout` once the old keys are moved.
LAYOUT_VERSION = 2


#: Further tables of one room (a chat or a forum topic) are places of their own, keyed by a
#: number in [TABLE_KEY_BASE, 2 * TABLE_KEY_BASE) whose lowest bits hold the shard of their
#: room: a table's keys share the hash slot of its room's, so a game starting at a table can
#: take its room's challenge, and its room's index of tables, in one script.
TABLE_KEY_BASE = 1 << 58
_TABLE_SHARD_BITS = 4  # enough for TIMER_SHARDS shards


def is_table_key(place: int) -> bool:
    """Is ``place`` a further table of a room (not a room itself)?"""
    return TABLE_KEY_BASE <= place < 2 * TABLE_KEY_BASE


def table_place(room: int, hashed: int) -> int:
    """The key of a further table of ``room`` from a hash of (room, table number): a key
    in the table range that carries ``room``'s shard (``shard_of`` gives it back)."""
    spread = hashed % (TABLE_KEY_BASE >> _TABLE_SHARD_BITS)
    return TABLE_KEY_BASE + (spread << _TABLE_SHARD_BITS) + shard_of(room)


def shard_of(place: int) -> int:
    """The shard of a place: stable across processes and versions (CRC-32 of its decimal
    id), so every worker agrees where a place's keys live. A further table of a room
    carries its room's shard in its key."""
    if is_table_key(place):
        return place % (1 << _TABLE_SHARD_BITS) % TIMER_SHARDS
    return zlib.crc32(str(place).encode()) % TIMER_SHARDS


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    def __post_init__(self) -> None:
        if "{" in self.prefix or "}" in self.prefix:
            raise ValueError("the key prefix must not contain a hash tag")

    # ----------------------------------------------------------------- tags

    def _place(self, place: int) -> str:
        """The start of every key of ``place``: the prefix and the place's shard tag."""
        return f"{self.prefix}:{{s:{shard_of(place)}}}"

    def _shard(self, shard: int) -> str:
        return f"{self.prefix}:{{s:{shard}}}"

    def _user(self, user_id: int) -> str:
        return f"{self.prefix}:{{u:{user_id}}}"

    # ----------------------------------------------------------------- places

    def game(self, chat_id: int) -> str:
        """Hash of the chat's active game: v (version), id, doc (JSON), msg (board message id),
        ts (last save, ms), sv (version the board shows)."""
        return f"{self._place(chat_id)}:game:{chat_id}"

    def game_pattern(self) -> str:
        """Every active game's key, for SCAN."""
        return f"{self.prefix}:{{s:*}}:game:*"

    def finished(self, chat_id: int, game_id: int) -> str:
        return f"{self._place(chat_id)}:done:{chat_id}:{game_id}"

    def history(self, chat_id: int) -> str:
        """Sorted set of the chat's finished game ids, scored by finishing time (ms)."""
        return f"{self._place(chat_id)}:history:{chat_id}"

    def record(self, chat_id: int, game_id: int, game_number: int) -> str:
        """A finished game's record (JSON), one per game of a match."""
        return f"{self._place(chat_id)}:rec:{chat_id}:{game_id}:{game_number}"

    def records(self, chat_id: int) -> str:
        """Sorted set of the chat's kept records (``game_id:game_number``), by finishing time."""
        return f"{self._place(chat_id)}:recs:{chat_id}"

    def dice_seed(self, chat_id: int, card: str = "") -> str:
        """The secret dice seed of the chat's next game, whose commitment has been shown:
        the chat's own (shown with a result), or that of one ``card`` (a challenge, a set-up
        page), so each card shows a commitment of its own."""
        suffix = f":{card}" if card else ""
        return f"{self._place(chat_id)}:seed:{chat_id}{suffix}"

    def edit_window(self, chat_id: int, message_id: int) -> str:
        """Set while a message's edit period runs (``storage.edit_windows``)."""
        return f"{self._place(chat_id)}:editwin:{chat_id}:{message_id}"

    def edit_planned(self, chat_id: int, message_id: int) -> str:
        """Set while some worker holds an edit of the message for its period's end."""
        return f"{self._place(chat_id)}:editplan:{chat_id}:{message_id}"

    def challenge(self, chat_id: int, challenge_id: int) -> str:
        return f"{self._place(chat_id)}:challenge:{chat_id}:{challenge_id}"

    def challenges(self, chat_id: int) -> str:
        """Sorted set of the chat's challenge ids, scored by expiry (ms)."""
        return f"{self._place(chat_id)}:challenges:{chat_id}"

    def message(self, chat_id: int, kind: str) -> str:
        """Id of a message of the bot's that is to be tidied away later (a time reminder)."""
        return f"{self._place(chat_id)}:msg:{chat_id}:{kind}"

    def topics(self, chat_id: int) -> str:
        """Hash of a forum group's topics that hosted a table: place key -> thread id, so
        whatever concerns the whole group (it moved, it removed the bot) finds them."""
        return f"{self._place(chat_id)}:topics:{chat_id}"

    def seats(self, room: int) -> str:
        """Hash of a room's seated players: user id -> key of the table they play at (a
        person sits at one table per room)."""
        return f"{self._place(room)}:seats:{room}"

    def tables(self, room: int) -> str:
        """Hash of a room's tables in use: table key -> JSON of its players, its game and
        when it was claimed (the room's own key is its first table)."""
        return f"{self._place(room)}:tables:{room}"

    def table_games(self, room: int) -> str:
        """Hash of game id -> table key for the games of a room's further tables, so a
        button of any of their boards (a finished one's too) finds its table."""
        return f"{self._place(room)}:table-games:{room}"

    def last_tables(self, room: int) -> str:
        """Hash of user id -> the table of the room where they last sat, so what concerns a
        finished game (its replay, its analysis) finds it after the table is freed."""
        return f"{self._place(room)}:last-tables:{room}"

    def away(self, chat_id: int) -> str:
        """Marker of a chat the bot can no longer reach (removed from the group, blocked by
        the user): its value says why. Its games are adjourned until it comes back."""
        return f"{self._place(chat_id)}:away:{chat_id}"

    def inline_card(self, chat_id: int) -> str:
        """The nonce of the challenge card an inline message (by its key) was posted with."""
        return f"{self._place(chat_id)}:icard:{chat_id}"

    def leaderboard(self, variant: str, chat_id: int | None = None) -> str:
        """Players by rating: in a group (its place's shard), or everywhere (a key alone)."""
        if chat_id is None:
            return f"{self.prefix}:lb:g:{variant}"
        return f"{self._place(chat_id)}:lb:{chat_id}:{variant}"

    def chat_pattern(self, family: str, chat_id: int) -> str:
        """A SCAN pattern for the keys of one family that belong to a chat (``stats``'s
        per-chat hashes, ``msg``'s remembered messages): they have no index of their own."""
        if family == "stats":
            return f"{self.prefix}:{{u:*}}:stats:c:{chat_id}"
        return f"{self._place(chat_id)}:{family}:{chat_id}:*"

    # ----------------------------------------------------------------- shards

    def deadlines(self, chat_id: int) -> str:
        """Sorted set of the chat ids of ``chat_id``'s shard scored by the due time (ms) of
        the turn in progress."""
        return self.shard_deadlines(shard_of(chat_id))

    def reminders(self, chat_id: int) -> str:
        """Sorted set of the chat ids of ``chat_id``'s shard scored by when (ms) the turn's
        time reminder is due."""
        return self.shard_reminders(shard_of(chat_id))

    def shard_deadlines(self, shard: int) -> str:
        return f"{self._shard(shard)}:deadlines"

    def shard_reminders(self, shard: int) -> str:
        return f"{self._shard(shard)}:reminders"

    def timer_leases(self, shard: int) -> str:
        """Sorted set of a shard's claimed timers (``kind:chat:due ms``) scored by when (ms)
        their claim lapses: a worker that dies while firing one leaves it to another."""
        return f"{self._shard(shard)}:timer-leases"

    def pending_counts(self, shard: int) -> str:
        """Sorted set of finished games of the shard's places whose statistics are still to
        be counted (JSON of what to count), scored by when (ms) a worker may take them over:
        the game's own save queues them atomically, the player-side steps follow."""
        return f"{self._shard(shard)}:to-count"

    # ----------------------------------------------------------------- players

    def preferences(self, user_id: int) -> str:
        """Hash of a player's settings (name -> value), kept as long as the player."""
        return f"{self._user(user_id)}:prefs"

    def stats(self, user_id: int, chat_id: int | None = None) -> str:
        scope = "g" if chat_id is None else f"c:{chat_id}"
        return f"{self._user(user_id)}:stats:{scope}"

    def counted(self, user_id: int) -> str:
        """Sorted set of the results already counted in a player's statistics (by when), so a
        retried counting step never counts a game twice."""
        return f"{self._user(user_id)}:counted"

    # ----------------------------------------------------------------- global

    def names(self) -> str:
        return f"{self.prefix}:names"

    def game_seq(self) -> str:
        return f"{self.prefix}:seq:game"

    def challenge_seq(self) -> str:
        return f"{self.prefix}:seq:challenge"

    def inline_card_use(self, nonce: str) -> str:
        """Marker of a challenge card already posted (a card is bound to one message only)."""
        return f"{self.prefix}:icard-use:{nonce}"

    def layout(self) -> str:
        """The key layout version the stored keys follow (absent: the untagged first one)."""
        return f"{self.prefix}:layout"
