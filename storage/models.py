"""Plain data the repository takes and returns (no Redis types leak out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VARIANTS: tuple[str, ...] = ("classic", "long")
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class StorageConfig:
    """Where keys live and how long records are kept (seconds).

    ``prefix`` carries the key-layout version: a new incompatible layout gets ``tavola:v2`` and
    never misreads the old keys.
    """

    prefix: str = "tavola:v1"
    idle_game_ttl: float = 14 * DAY
    finished_game_ttl: float = 90 * DAY
    record_ttl: float = 30 * DAY  # each finished game's record (replays, analysis, dice)
    start_rating: float = 1500.0

    def __post_init__(self) -> None:
        if not self.prefix or any(ch.isspace() for ch in self.prefix):
            raise ValueError(f"invalid key prefix {self.prefix!r}")
        if self.idle_game_ttl <= 0 or self.finished_game_ttl <= 0 or self.record_ttl <= 0:
            raise ValueError("TTLs must be positive")


@dataclass(frozen=True, slots=True)
class PressReads:
    """What a button press reads before it acts, read in one round trip
    (``GameRepository.read_for_press``): the table of the room holding the pressed game,
    the game at the place asked for, and the presser's settings.

    ``game`` is the game stored at the place read (``place``), or ``game_error`` why it
    cannot be read (raised by :meth:`stored` only: when ``table`` names another table of the
    room, the caller loads that one instead and the room's own record does not matter).
    """

    place: int
    table: int | None
    game: StoredGame | None
    preferences: dict[str, str]
    game_error: Exception | None = None

    def stored(self) -> StoredGame | None:
        """The game at ``place``, or the error that kept it from being read."""
        if self.game_error is not None:
            raise self.game_error
        return self.game


@dataclass(frozen=True, slots=True)
class StoredGame:
    """The active game of a chat as loaded: ``version`` is what a save must quote.

    ``shown_version`` is the version the board message shows (``mark_shown``), None until
    a board was recorded: when it is behind ``version`` the bot stopped between saving a move
    and redrawing, and the board must be redrawn before anyone acts on it.
    """

    chat_id: int
    game_id: int
    version: int
    doc: dict[str, Any]
    board_message_id: int | None = None
    updated_at: float = 0.0
    shown_version: int | None = None

    @property
    def board_is_behind(self) -> bool:
        """True when the board message does not show the saved version (or none is known)."""
        return self.shown_version is None or self.shown_version < self.version


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """An archived game (its match ended), kept ``finished_game_ttl`` for export and history."""

    chat_id: int
    game_id: int
    version: int
    doc: dict[str, Any]
    result: dict[str, Any]
    finished_at: float


@dataclass(frozen=True, slots=True)
class ArchivedRecord:
    """The record of one finished game (a document the bot wrote), kept ``record_ttl``."""

    chat_id: int
    game_id: int
    game_number: int
    doc: dict[str, Any]
    finished_at: float


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game, recorded atomically with the game's final state.

    ``players`` / ``names`` / ``points`` are parallel pairs. ``points`` are the points each
    player scored in this game (cube, gammon, Mars included). ``winner_id`` is None for a draw
    (long nardy's last roll). When ``ends_match`` is true the game's winner is the match's winner
    and the ratings are updated with ``match_length``.
    """

    chat_id: int
    game_id: int
    variant: str
    match_length: int
    players: tuple[int, int]
    names: tuple[str, str]
    winner_id: int | None
    points: tuple[int, int]
    ends_match: bool
    #: False for a game played in an inline message: it counts for the players and the
    #: global leaderboard, but there is no chat to keep a leaderboard for.
    in_chat: bool = True
    #: The chat whose leaderboard and statistics count the game when that is not
    #: ``chat_id``: a game in a forum topic is kept under the topic's own key, and counts
    #: for its group's leaderboard (one per group, over all its topics).
    group_id: int | None = None
    #: False for the end of a match left between two games: its last game was counted when
    #: it ended, so this result moves the match's counts (and the ratings) but is no game.
    counts_game: bool = True

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}")
        if self.match_length < 0:
            raise ValueError("match_length must be at least 1, or 0 for a money game")
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise ValueError("a result needs two different players")
        if len(self.names) != 2 or len(self.points) != 2:
            raise ValueError("names and points must be pairs")
        if self.winner_id is not None and self.winner_id not in self.players:
            raise ValueError("the winner must be one of the players")
        if min(self.points) < 0:
            raise ValueError("points cannot be negative")

    @property
    def money(self) -> bool:
        """A money game (classic, match length 0): its points are counted apart from the
        matches' points, and it changes no Elo rating."""
        return self.match_length == 0

    def outcome_of(self, index: int) -> str:
        """ "w", "l" or "d" for ``players[index]``."""
        if self.winner_id is None:
            return "d"
        return "w" if self.winner_id == self.players[index] else "l"

    def to_dict(self) -> dict[str, Any]:
        return {
            "chat_id": self.chat_id,
            "game_id": self.game_id,
            "variant": self.variant,
            "match_length": self.match_length,
            "players": list(self.players),
            "names": list(self.names),
            "winner_id": self.winner_id,
            "points": list(self.points),
            "ends_match": self.ends_match,
            "in_chat": self.in_chat,
            **({} if self.group_id is None else {"group_id": self.group_id}),
            **({} if self.counts_game else {"counts_game": False}),
        }


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class FinishOutcome:
    """What ``finish_game`` did: the new version (if the match goes on), global rating changes."""

    version: int
    archived: bool
    rating_changes: tuple[RatingChange, ...] = ()


@dataclass(frozen=True, slots=True)
class Challenge:
    """A pending challenge; ``payload`` is the bot's own JSON-able data."""

    chat_id: int
    challenge_id: int
    payload: dict[str, Any]
    expires_at: float


@dataclass(frozen=True, slots=True)
class Deadline:
    chat_id: int
    due_at: float


@dataclass(frozen=True, slots=True)
class Timer:
    """A due timer claimed by one worker: which set it came from (``"deadline"`` or
    ``"reminder"``), the chat, and the time it was due, to the millisecond as stored (the
    worker completes exactly that entry, never a newer one set since)."""

    kind: str
    chat_id: int
    at_ms: int

    @property
    def at(self) -> float:
        return self.at_ms / 1000


@dataclass(frozen=True, slots=True)
class VariantStats:
    """A player's record in one variant and one scope (a chat, or everywhere)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: int = 0
    points_against: int = 0
    matches: int = 0
    match_wins: int = 0
    match_losses: int = 0
    match_draws: int = 0
    rating: float = 1500.0
    experience: int = 0
    money_games: int = 0  # money games (classic), counted apart from matches
    money_points: int = 0
    money_points_against: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str | None
    by_variant: dict[str, VariantStats] = field(default_factory=dict)

    def total(self, name: str) -> int:
        """A counter summed over the variants, e.g. ``total("wins")``."""
        return sum(int(getattr(stats, name)) for stats in self.by_variant.values())


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    name: str | None
    rating: float


@dataclass(frozen=True, slots=True)
class Migration:
    """What moving a chat's records to its new id did: whether its active game moved (then
    its board must be posted in the new chat) and how many other records moved."""

    game_moved: bool
    records_moved: int

    @property
    def nothing(self) -> bool:
        """Nothing was left under the old id: the move had already been done."""
        return not self.game_moved and self.records_moved == 0
