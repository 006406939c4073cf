"""The computer opponent: three levels for classic and long, cube decisions and hints.

Pure: no I/O (apart from reading the packaged network weights once and the bear-off
database's cache file), no Telegram. The strength comes from small neural networks trained
by TD(lambda) self-play (``training/train.py``, weights in ``engine/ai/weights/``), an exact
bear-off database (``engine/ai/bearoff.py``) and, at the Difficile level, a look-ahead of
one or two plies with move filtering (``engine/ai/search.py``).

Public API:
    Level                                  FACILE / MEDIO / DIFFICILE
    choose_play(state, level, rng)         Play | None    (state in Phase.MOVE)
    cube_decision(state, level)            bool           (double now? Phase.ROLL)
    accept_double(state, level)            bool           (take? Phase.DOUBLED)
    hint(state, n=3)                       [(Play, equity)], best first (cubeless)
    checker_hint(state, n=3)               CheckerHint: the plays valued at the score and cube
    cube_hint(state)                       CubeHint: double / take with the three equities
    cube_available_to_hint(state)          bool           (a cube decision to hint now?)
    HintBasis, HintUnit, CubeAdvice        what a hint rests on, its unit, the cube advice
    accept_resignation(state, side, pts, level)  bool     (accept side's offer to resign?)
    analyse(decisions)                     Analysis       (a finished game's decisions)
    Analysis, PlayerReport, Review         its per-side figures and worst decisions
    review_game(decisions)                 GameReview     (every decision judged, in order)
    DecisionKind, Severity                 what a review is about, and how bad it was
    DecisionLike                           what analyse reads of a decision (state, chosen)
    DOUBTFUL, ERROR, BLUNDER               the equity thresholds of the severities
    warm_up()                              load the networks and the bear-off database

Must not import: ``bot``, ``render``, ``storage``.
"""

from engine.ai.analysis import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    Analysis,
    DecisionLike,
    PlayerReport,
    Review,
    Severity,
    analyse,
)
from engine.ai.game_review import GameReview, ReviewedDecision, review_game
from engine.ai.hints import Basis as HintBasis
from engine.ai.hints import (
    CheckerHint,
    CubeAdvice,
    CubeHint,
    checker_hint,
    cube_available_to_hint,
    cube_hint,
)
from engine.ai.hints import Unit as HintUnit
from engine.ai.levels import (
    Level,
    accept_double,
    accept_resignation,
    choose_play,
    cube_decision,
    hint,
)
from engine.ai.search import warm_up
from engine.record import DecisionKind

__all__ = [
    "BLUNDER",
    "DOUBTFUL",
    "ERROR",
    "Analysis",
    "CheckerHint",
    "CubeAdvice",
    "CubeHint",
    "DecisionKind",
    "DecisionLike",
    "GameReview",
    "HintBasis",
    "HintUnit",
    "Level",
    "PlayerReport",
    "Review",
    "ReviewedDecision",
    "Severity",
    "accept_double",
    "accept_resignation",
    "analyse",
    "checker_hint",
    "choose_play",
    "cube_available_to_hint",
    "cube_decision",
    "cube_hint",
    "hint",
    "review_game",
    "warm_up",
]
