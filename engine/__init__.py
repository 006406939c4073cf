"""Tavola's rules engine: classic backgammon and backgammon lungo (long nardy).

Owns the rules and nothing else: positions, legal steps and plays, turn flow, results,
notation, GNU Backgammon ids, a compact id for long, and JSON serialisation. It is pure
Python with no I/O and no randomness of its own (dice are inputs), so the bot, the
renderer, the storage and the computer opponent can all trust one implementation.

Must not import: ``bot``, ``render``, ``storage`` (nor Telegram or Redis).
"""

from engine.errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalActionError,
    IllegalMoveError,
    InvalidInputError,
    MoveProblem,
    NotationError,
)
from engine.game import (
    CLASSIC_POINTS,
    EndReason,
    GameResult,
    GameState,
    MatchConfig,
    Phase,
    ResultKind,
)
from engine.moves import Play, Step
from engine.rules import Rules, rules_for
from engine.types import SeriesStart, Side, Variant

__all__ = [
    "CLASSIC_POINTS",
    "AmbiguousMoveError",
    "EndReason",
    "EngineError",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidInputError",
    "MatchConfig",
    "MoveProblem",
    "NotationError",
    "Phase",
    "Play",
    "ResultKind",
    "Rules",
    "SeriesStart",
    "Side",
    "Step",
    "Variant",
    "rules_for",
]
