"""Storage: the bot's state in Redis (or an embedded Valkey), safe under concurrency.

Games are opaque JSON documents with an integer ``"schema"``; the engine converts them to and
from its state. See :class:`GameRepository` for the operations and :func:`open_redis` for the
connection.
"""

from storage.connect import RedisHandle, open_redis, redact_url
from storage.embedded import DEFAULT_DATA_DIR, EmbeddedValkey
from storage.errors import (
    ChallengeGoneError,
    CorruptGameError,
    GameAlreadyActiveError,
    GameNotFoundError,
    NewerGameError,
    StorageError,
    StorageUnavailableError,
    VersionConflictError,
)
from storage.models import (
    VARIANTS,
    ArchivedRecord,
    Challenge,
    Deadline,
    FinishedGame,
    FinishOutcome,
    GameResult,
    LeaderboardEntry,
    Migration,
    PlayerStats,
    PressReads,
    RatingChange,
    StorageConfig,
    StoredGame,
    Timer,
    VariantStats,
)
from storage.rating import START_RATING, rating_change, win_probability
from storage.repository import GameRepository
from storage.schema import NewerSchemaError, SchemaError, SchemaRegistry

__all__ = [
    "DEFAULT_DATA_DIR",
    "START_RATING",
    "VARIANTS",
    "ArchivedRecord",
    "Challenge",
    "ChallengeGoneError",
    "CorruptGameError",
    "Deadline",
    "EmbeddedValkey",
    "FinishOutcome",
    "FinishedGame",
    "GameAlreadyActiveError",
    "GameNotFoundError",
    "GameRepository",
    "GameResult",
    "LeaderboardEntry",
    "Migration",
    "NewerGameError",
    "NewerSchemaError",
    "PlayerStats",
    "PressReads",
    "RatingChange",
    "RedisHandle",
    "SchemaError",
    "SchemaRegistry",
    "StorageConfig",
    "StorageError",
    "StorageUnavailableError",
    "StoredGame",
    "Timer",
    "VariantStats",
    "VersionConflictError",
    "open_redis",
    "rating_change",
    "redact_url",
    "win_probability",
]
