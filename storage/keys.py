"""Key names: every key of the bot lives under one versioned prefix (``tavola:v1``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    def game(self, chat_id: int) -> str:
        """Hash of the chat's active game: v (version), id, doc (JSON), msg (board message id),
        ts (last save, ms), sv (version the board shows)."""
        return f"{self.prefix}:game:{chat_id}"

    def game_pattern(self) -> str:
        """Every active game's key, for SCAN."""
        return f"{self.prefix}:game:*"

    def finished(self, chat_id: int, game_id: int) -> str:
        return f"{self.prefix}:done:{chat_id}:{game_id}"

    def history(self, chat_id: int) -> str:
        """Sorted set of the chat's finished game ids, scored by finishing time (ms)."""
        return f"{self.prefix}:history:{chat_id}"

    def record(self, chat_id: int, game_id: int, game_number: int) -> str:
        """A finished game's record (JSON), one per game of a match."""
        return f"{self.prefix}:rec:{chat_id}:{game_id}:{game_number}"

    def records(self, chat_id: int) -> str:
        """Sorted set of the chat's kept records (``game_id:game_number``), by finishing time."""
        return f"{self.prefix}:recs:{chat_id}"

    def dice_seed(self, chat_id: int) -> str:
        """The secret dice seed of the chat's next game, whose commitment has been shown."""
        return f"{self.prefix}:seed:{chat_id}"

    def update(self, bot_id: int, update_id: int) -> str:
        """Marker of a Telegram update being handled (expires), for at-most-once handling."""
        return f"{self.prefix}:upd:{bot_id}:{update_id}"

    def game_seq(self) -> str:
        return f"{self.prefix}:seq:game"

    def challenge_seq(self) -> str:
        return f"{self.prefix}:seq:challenge"

    def challenge(self, chat_id: int, challenge_id: int) -> str:
        return f"{self.prefix}:challenge:{chat_id}:{challenge_id}"

    def challenges(self, chat_id: int) -> str:
        """Sorted set of the chat's challenge ids, scored by expiry (ms)."""
        return f"{self.prefix}:challenges:{chat_id}"

    def deadlines(self) -> str:
        """Sorted set of chat ids scored by the due time (ms) of the turn in progress."""
        return f"{self.prefix}:deadlines"

    def reminders(self) -> str:
        """Sorted set of chat ids scored by when (ms) the turn's time reminder is due."""
        return f"{self.prefix}:reminders"

    def timer_leases(self) -> str:
        """Sorted set of claimed timers (``kind:chat:due ms``) scored by when (ms) their
        claim lapses: a worker that dies while firing one leaves it to another."""
        return f"{self.prefix}:timer-leases"

    def message(self, chat_id: int, kind: str) -> str:
        """Id of a message of the bot's that is to be tidied away later (a time reminder)."""
        return f"{self.prefix}:msg:{chat_id}:{kind}"

    def topics(self, chat_id: int) -> str:
        """Hash of a forum group's topics that hosted a table: place key -> thread id, so
        whatever concerns the whole group (it moved, it removed the bot) finds them."""
        return f"{self.prefix}:topics:{chat_id}"

    def names(self) -> str:
        return f"{self.prefix}:names"

    def preferences(self, user_id: int) -> str:
        """Hash of a player's settings (name -> value), kept as long as the player."""
        return f"{self.prefix}:prefs:{user_id}"

    def stats(self, user_id: int, chat_id: int | None = None) -> str:
        scope = "g" if chat_id is None else f"c:{chat_id}"
        return f"{self.prefix}:stats:{scope}:{user_id}"

    def leaderboard(self, variant: str, chat_id: int | None = None) -> str:
        scope = "g" if chat_id is None else f"c:{chat_id}"
        return f"{self.prefix}:lb:{scope}:{variant}"

    def away(self, chat_id: int) -> str:
        """Marker of a chat the bot can no longer reach (removed from the group, blocked by
        the user): its value says why. Its games are adjourned until it comes back."""
        return f"{self.prefix}:away:{chat_id}"

    def chat_pattern(self, family: str, chat_id: int) -> str:
        """A SCAN pattern for the keys of one family that belong to a chat (``stats``'s
        per-chat hashes, ``msg``'s remembered messages): they have no index of their own."""
        scoped = f"c:{chat_id}" if family == "stats" else str(chat_id)
        return f"{self.prefix}:{family}:{scoped}:*"

    def inline_card(self, chat_id: int) -> str:
        """The nonce of the challenge card an inline message (by its key) was posted with."""
        return f"{self.prefix}:icard:{chat_id}"

    def inline_card_use(self, nonce: str) -> str:
        """Marker of a challenge card already posted (a card is bound to one message only)."""
        return f"{self.prefix}:icard-use:{nonce}"
