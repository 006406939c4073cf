"""The full review of a game: every decision of both sides, with what it was worth.

``engine.ai.analysis`` judges each decision (``review_decision``) and keeps the figures and
the worst few; the full review keeps them all, in the order they were made, for a
document a player reads move by move. Each decision is judged exactly once, by the
analysis itself, so the review's losses, severities and per-side figures are the
analysis's own; what is added is the equity of the best checker play, as deep as the
analysis compared it (one ply ahead at least) and on the analysis's own scale (normalised
to the cube, cubeful, by the score in matches), so that a row can show both the best
play's equity and the played one's (the best's minus the loss). A decision the analysis
does not count (a forced play, a cube that nobody would have turned) stays in the list,
marked as such.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.ai.analysis import (
    DecisionLike,
    PlayerReport,
    Review,
    Severity,
    cubeful_play_equities,
    review_decision,
)
from engine.ai.levels import reply_rules
from engine.ai.search import one_ply
from engine.game import GameState, Phase
from engine.moves import Play
from engine.record import DecisionKind
from engine.types import Side


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of the game, judged. ``review`` is None when the analysis does not
    count it (no real choice); ``best_equity`` is set for a judged checker play only."""

    index: int  # position in the game's list of decisions
    side: Side
    kind: DecisionKind
    state: GameState
    chosen: Play | bool | None
    review: Review | None
    best_equity: float | None = None

    @property
    def loss(self) -> float:
        return self.review.loss if self.review is not None else 0.0

    @property
    def severity(self) -> Severity:
        return self.review.severity if self.review is not None else Severity.NONE

    @property
    def chosen_equity(self) -> float | None:
        """The played checker play's equity, on the same scale as the best one's."""
        return None if self.best_equity is None else self.best_equity - self.loss


@dataclass(frozen=True)
class GameReview:
    """Every decision of a game in order, and each side's figures (indexed by ``Side``)."""

    decisions: tuple[ReviewedDecision, ...]
    players: tuple[PlayerReport, PlayerReport]


def _kind(state: GameState) -> DecisionKind:
    if state.phase is Phase.MOVE:
        return DecisionKind.PLAY
    return DecisionKind.TAKE if state.phase is Phase.DOUBLED else DecisionKind.DOUBLE


def best_play_equity(state: GameState, play: Play) -> float:
    """The equity of ``play`` one roll ahead on the analysis's own scale (normalised, cubeful
    where a cube can still be turned, by the match score in matches), so that the best
    play's equity minus a row's loss is the played one's."""
    probs = one_ply(state.variant, [play], reply_rules(state))
    return float(cubeful_play_equities(state, [play], probs)[0])


def review_game(decisions: Iterable[DecisionLike]) -> GameReview:
    """Judge every decision of a game (``GameRecord.decisions()``). Takes seconds of CPU:
    call it in a worker process."""
    reports = [PlayerReport(Side.WHITE), PlayerReport(Side.BLACK)]
    rows: list[ReviewedDecision] = []
    for index, decision in enumerate(decisions):
        state, chosen = decision.state, decision.chosen
        review = review_decision(index, state, chosen)
        best: float | None = None
        if review is not None:
            reports[review.side] = reports[review.side].counted(review)
            if isinstance(review.best, Play):
                best = review.best_equity
                if best is None:  # no rival was looked at: value the best play now
                    best = best_play_equity(state, review.best)
        # The side deciding is on turn (while a double is pending, the taker is).
        rows.append(ReviewedDecision(index, state.turn, _kind(state), state, chosen, review, best))
    return GameReview(tuple(rows), (reports[0], reports[1]))
