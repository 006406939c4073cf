"""Exceptions raised by the storage layer.

Every failure the bot may want to handle derives from :class:`StorageError`, so a handler can
catch one type; no redis-py or JSON exception leaks out of the repository's public methods.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of all storage failures."""


class StorageUnavailableError(StorageError):
    """The Redis/Valkey server cannot be reached (or the embedded one cannot start).

    The message is one line and never contains the password of the URL, so ``__main__`` may
    print it as it is.
    """


class CorruptGameError(StorageError):
    """The stored game of a chat cannot be read safely.

    Raised for unparsable JSON, a missing or non-integer ``"schema"``, a schema newer than the
    code supports, a missing migration step, or a malformed record. The game is never misread:
    the caller tells the chat and may discard the game.
    """

    def __init__(self, chat_id: int, reason: str) -> None:
        super().__init__(f"stored game of chat {chat_id} is unreadable: {reason}")
        self.chat_id = chat_id
        self.reason = reason


class NewerGameError(CorruptGameError):
    """The stored game was written by a newer version of the bot (a newer schema).

    Not corrupt: the caller must leave it untouched (never discard nor overwrite it) and
    may tell the chat to try again shortly, when a newer worker serves it.
    """


class GameNotFoundError(StorageError):
    """The game the caller wants to update is no longer the chat's active game.

    It expired, it was finished or discarded, or another game replaced it.
    """

    def __init__(self, chat_id: int, game_id: int) -> None:
        super().__init__(f"game {game_id} is not the active game of chat {chat_id}")
        self.chat_id = chat_id
        self.game_id = game_id


class VersionConflictError(StorageError):
    """The update was built on an old version of the game: reload and decide again."""

    def __init__(self, chat_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"game of chat {chat_id} is at version {actual}, the update was built on {expected}"
        )
        self.chat_id = chat_id
        self.expected = expected
        self.actual = actual


class GameAlreadyActiveError(StorageError):
    """The place already has an active game (one at a time per table)."""

    def __init__(self, chat_id: int, game_id: int) -> None:
        super().__init__(f"chat {chat_id} already has the active game {game_id}")
        self.chat_id = chat_id
        self.game_id = game_id


class ChallengeGoneError(StorageError):
    """The challenge expired, was withdrawn or was already accepted by someone else."""

    def __init__(self, chat_id: int, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} of chat {chat_id} is no longer pending")
        self.chat_id = chat_id
        self.challenge_id = challenge_id
