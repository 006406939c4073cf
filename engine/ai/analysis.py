"""Post-game analysis: how much equity each player gave away, decision by decision.

The input is the list of decisions of one game (``GameRecord.decisions()``): the state in
which a player had to choose, and what they chose. Only the ``state`` and ``chosen``
attributes are read, and the kind of decision follows from the state's phase:

- Phase.MOVE: a checker play; ``chosen`` is the ``Play`` made.
- Phase.ROLL: double or not (classic, cube available); ``chosen`` is True for a double.
- Phase.DOUBLED: take or drop; ``chosen`` is True for a take.

Checker plays are scored at 1-ply, as Difficile's first stage: every play gets the
network's 0-ply equity, then the best few (``DEEP_CANDIDATES`` within ``DEEP_MARGIN``)
and the play made are re-scored by the 1-ply look-ahead (``engine.ai.search.one_ply``),
so the play made is always compared with the best at the same depth. Equities are
cubeless, in points of a game at cube 1. Cube decisions are valued with the cube model
(``engine.ai.cube``) from a 1-ply estimate of the position before the roll, in
match-winning chance, and converted to the same units (the MWC difference divided by half
the MWC swing of a single game at cube 1), so both kinds of loss add up into one error
rate, as GNU Backgammon's "normalised" figures do.

Thresholds (GNU Backgammon's defaults), on the equity lost by one decision:

- doubtful: at least ``DOUBTFUL`` (0.04)
- error: at least ``ERROR`` (0.08)
- blunder: at least ``BLUNDER`` (0.16)

The error rate is the average loss per decision times 1000 ("millipoints"). Decisions that
offer no choice are not counted: a roll with at most one legal play, and a cube that could
have been turned but was not, where doubling was clearly wrong (neither the right action
nor within the doubtful threshold of it; a 0-ply screen, ``CLEAR_NO_DOUBLE``, spares the
1-ply estimate for the obvious ones) - as GNU Backgammon counts "unforced moves" and
"close or actual cube decisions". Resignations are not analysed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol

import numpy as np

from engine.ai import cube
from engine.ai.arrays import Probs
from engine.ai.levels import Level, cube_analysis, reply_rules
from engine.ai.outcomes import equity
from engine.ai.search import one_ply, zero_ply
from engine.game import GameState, Phase
from engine.moves import Play
from engine.record import DecisionKind
from engine.types import Side

#: Equity lost by one decision from which it counts as doubtful, an error, a blunder.
DOUBTFUL = 0.04
ERROR = 0.08
BLUNDER = 0.16

#: How many of the best 0-ply plays are re-scored at 1 ply (with the play made).
DEEP_CANDIDATES = 3
#: ... and only those within this much 0-ply equity of the best.
DEEP_MARGIN = 0.2
#: How many of the worst decisions the analysis keeps.
WORST_KEPT = 3


class Severity(StrEnum):
    NONE = "none"
    DOUBTFUL = "doubtful"
    ERROR = "error"
    BLUNDER = "blunder"


def severity(loss: float) -> Severity:
    """How a decision that lost ``loss`` equity is classed (thresholds in the module doc)."""
    if loss >= BLUNDER:
        return Severity.BLUNDER
    if loss >= ERROR:
        return Severity.ERROR
    if loss >= DOUBTFUL:
        return Severity.DOUBTFUL
    return Severity.NONE


class DecisionLike(Protocol):
    """What the analysis reads of a recorded decision (``engine.record.Decision``)."""

    @property
    def state(self) -> GameState: ...

    @property
    def chosen(self) -> Play | bool | None: ...


@dataclass(frozen=True)
class Review:
    """One analysed decision: what was chosen, what was best, and what it cost.

    ``state`` is the position of the decision (without its caches, so a review pickles
    small between processes). For a play, ``chosen`` and ``best`` are plays (``chosen`` is
    None when the play made is not one of the roll's legal plays); for the cube they are
    booleans (True: double, or take).
    """

    index: int  # position in the game's list of decisions
    side: Side
    kind: DecisionKind
    state: GameState
    chosen: Play | bool | None
    best: Play | bool
    loss: float

    @property
    def severity(self) -> Severity:
        return severity(self.loss)


@dataclass(frozen=True)
class PlayerReport:
    """One side's figures over the game."""

    side: Side
    decisions: int = 0  # counted decisions (plays with a choice, close or actual cube)
    plays: int = 0
    cube_decisions: int = 0
    total_loss: float = 0.0
    doubtful: int = 0
    errors: int = 0
    blunders: int = 0
    cube_errors: int = 0  # cube decisions that lost at least ERROR

    @property
    def error_rate(self) -> float:
        """Average equity lost per decision, times 1000 (0 without decisions)."""
        return 1000.0 * self.total_loss / self.decisions if self.decisions else 0.0

    def counted(self, review: Review) -> PlayerReport:
        """This report with one more decision."""
        level = review.severity
        cube_kind = review.kind is not DecisionKind.PLAY
        return replace(
            self,
            decisions=self.decisions + 1,
            plays=self.plays + (not cube_kind),
            cube_decisions=self.cube_decisions + cube_kind,
            total_loss=self.total_loss + review.loss,
            doubtful=self.doubtful + (level is Severity.DOUBTFUL),
            errors=self.errors + (level is Severity.ERROR),
            blunders=self.blunders + (level is Severity.BLUNDER),
            cube_errors=self.cube_errors + (cube_kind and review.loss >= ERROR),
        )


@dataclass(frozen=True)
class Analysis:
    """The figures of both sides (indexed by ``Side``) and the worst decisions, worst first."""

    players: tuple[PlayerReport, PlayerReport]
    worst: tuple[Review, ...] = field(default=())

    def worst_of(self, side: Side) -> tuple[Review, ...]:
        return tuple(r for r in self.worst if r.side is side)


def analyse(decisions: Iterable[DecisionLike], keep: int = WORST_KEPT) -> Analysis:
    """Review every decision of a game; keep the ``keep`` costliest per side and overall."""
    reports = [PlayerReport(Side.WHITE), PlayerReport(Side.BLACK)]
    reviews: list[Review] = []
    for index, decision in enumerate(decisions):
        review = review_decision(index, decision.state, decision.chosen)
        if review is None:
            continue
        reports[review.side] = reports[review.side].counted(review)
        if review.loss > 0:
            reviews.append(review)
    reviews.sort(key=lambda r: (-r.loss, r.index))
    # The worst overall, and each side's own worst (for the message each player receives).
    kept = {r.index for r in reviews[:keep]}
    for side in Side:
        kept.update(r.index for r in [r for r in reviews if r.side is side][:keep])
    worst = tuple(r for r in reviews if r.index in kept)
    return Analysis((reports[0], reports[1]), worst)


def review_decision(index: int, state: GameState, chosen: Play | bool | None) -> Review | None:
    """The review of one decision, or None when it offered no real choice."""
    if state.phase is Phase.MOVE:
        return _review_play(index, state, chosen if isinstance(chosen, Play) else None)
    if state.phase is Phase.ROLL and state.cube_available:
        return _review_double(index, state, bool(chosen))
    if state.phase is Phase.DOUBLED:
        return _review_take(index, state, bool(chosen))
    return None


# --------------------------------------------------------------------------- checker plays
def _equities(state: GameState, probs: Probs) -> Probs:
    """Cubeless equity under the game's settings: with "Oin" scoring a mars counts 1."""
    if not state.rules.big_results_count(state.config, state.cube_value > 1):
        probs = probs.copy()
        probs[:, 1:] = 0.0
    return equity(state.variant, probs)


def _review_play(index: int, state: GameState, chosen: Play | None) -> Review | None:
    plays = state.legal_plays()
    if len(plays) <= 1:
        return None
    keys = [p.key for p in plays]
    made = keys.index(chosen.key) if chosen is not None and chosen.key in keys else None
    eq0 = _equities(state, zero_ply(state.variant, plays))
    order = [int(i) for i in np.argsort(-eq0, kind="stable")]
    top = [i for i in order[:DEEP_CANDIDATES] if eq0[i] >= eq0[order[0]] - DEEP_MARGIN]
    if made is not None and made not in top:
        top.append(made)
    if len(top) == 1:  # one candidate (the play made, or no rival near it): no look-ahead
        scored = {top[0]: float(eq0[top[0]])}
    else:
        deeper = one_ply(state.variant, [plays[i] for i in top], reply_rules(state))
        scored = dict(zip(top, (float(e) for e in _equities(state, deeper)), strict=True))
    best = max(scored, key=lambda i: scored[i])
    # A play that is not legal here (a corrupt record) counts as the worst 0-ply play.
    loss = scored[best] - scored[made] if made is not None else scored[best] - float(min(eq0))
    return Review(
        index,
        state.turn,
        DecisionKind.PLAY,
        state,
        plays[made] if made is not None else None,
        plays[best],
        max(0.0, loss),
    )


# --------------------------------------------------------------------------- cube
@dataclass(frozen=True, slots=True)
class CubeValues:
    """The futures of a cube decision in the doubler's match-winning chance (the cube model
    the computer decides with, ``engine.ai.cube``), and the scale that turns a difference
    of them into equity (half the swing of a game at cube 1)."""

    futures: cube.CubeAnalysis
    scale: float

    @property
    def taker_should_take(self) -> bool:
        return self.futures.take

    @property
    def should_double(self) -> bool:
        return self.futures.double

    @property
    def double_value(self) -> float:
        """What doubling is worth: the taker answers in their own interest."""
        return min(self.futures.double_take, self.futures.double_pass)

    @property
    def holding_value(self) -> float:
        """What not doubling is worth (the cube stays live, with its later value)."""
        return self.futures.no_double

    @property
    def take_gap(self) -> float:
        return abs(self.futures.double_take - self.futures.double_pass)


def cube_values(state: GameState, deep: bool = True) -> CubeValues:
    """Value the three futures for the side about to roll (the doubler: the side on turn
    in ROLL, the other in DOUBLED) from a 1-ply estimate of the position (``deep``, as
    Difficile decides) or the network's 0-ply one (as Medio)."""
    futures = cube_analysis(state, Level.DIFFICILE if deep else Level.MEDIO)
    doubler = state.turn.other if state.phase is Phase.DOUBLED else state.turn
    length = state.config.length
    a = length - state.score[state.player_of(doubler)]
    b = length - state.score[state.player_of(doubler.other)]
    if state.config.money:  # a long match at even score plays almost like money
        a = b = cube.MONEY_AWAY
    done = state.crawford_done
    unit = cube.met(a - 1, b, done) - cube.met(a, b - 1, done)
    return CubeValues(futures, max(unit / 2.0, 1e-6))


#: A position not doubled whose 0-ply estimate says "no double" by this much equity or
#: more is no cube decision at all: the 1-ply estimate (the cost of the analysis) is skipped.
CLEAR_NO_DOUBLE = 0.2


def _review_double(index: int, state: GameState, doubled: bool) -> Review | None:
    if not doubled:
        quick = cube_values(state, deep=False)
        if quick.holding_value - quick.double_value >= CLEAR_NO_DOUBLE * quick.scale:
            return None
    values = cube_values(state)
    should = values.should_double
    gap = abs(values.double_value - values.holding_value) / values.scale
    if not doubled and not should and gap >= DOUBTFUL:
        return None  # no double where doubling was clearly wrong: not a real decision
    loss = gap if doubled is not should else 0.0
    return Review(index, state.turn, DecisionKind.DOUBLE, state, doubled, should, loss)


def _review_take(index: int, state: GameState, took: bool) -> Review:
    values = cube_values(state)
    should = values.taker_should_take
    gap = values.take_gap / values.scale
    loss = gap if took is not should else 0.0
    return Review(index, state.turn, DecisionKind.TAKE, state, took, should, loss)
