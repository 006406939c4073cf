"""The post-game analysis as the bot shows it: computed in a worker, written in Italian.

``review_decisions`` runs in a worker process (it takes seconds of CPU: every play is
looked at one ply deep) and returns a picklable :class:`GameReview`; the rest turns it into
the message and the picture of the worst decision, on the event loop, in milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.game.table import Table
from bot.texts import messages as T
from bot.texts import review as R
from bot.views import presenter
from engine import GameRecord, GameState, Play, Side, Variant, format_play
from engine.ai import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    Analysis,
    DecisionKind,
    DecisionLike,
    Review,
    analyse,
)
from render import Arrow, BoardView


@dataclass(frozen=True)
class GameReview:
    """An analysed game: the engine's figures and how long they took to compute."""

    analysis: Analysis
    seconds: float


def review_decisions(decisions: Sequence[DecisionLike]) -> GameReview:
    """Analyse a game's decisions (``GameRecord.decisions()``). Runs in a worker."""
    start = time.perf_counter()
    analysis = analyse(decisions)
    return GameReview(analysis, time.perf_counter() - start)


def review_record(doc: dict[str, Any]) -> GameReview:
    """Analyse the game whose record document is ``doc`` (replayed here, so an illegal
    record raises the engine's error). Runs in a worker."""
    start = time.perf_counter()
    decisions = GameRecord.from_doc(doc).decisions()
    analysis = analyse(decisions)
    return GameReview(analysis, time.perf_counter() - start)


def _name(table: Table, state: GameState, side: Side) -> str:
    return table.players[state.player_of(side)].name


def decision_line(rank: int, review: Review, table: Table) -> str:
    """One of the worst decisions: who, what was chosen, what was better, and the loss."""
    state = review.state
    name = _name(table, state, review.side)
    if review.kind is DecisionKind.PLAY:
        assert state.dice is not None and isinstance(review.best, Play)
        made = format_play(review.chosen) if isinstance(review.chosen, Play) else "?"
        line = R.worst_play(rank, name, state.dice, made, format_play(review.best))
    elif review.kind is DecisionKind.DOUBLE:
        line = R.worst_double(rank, name, bool(review.chosen))
    else:
        line = R.worst_take(rank, name, bool(review.chosen))
    classic_match = state.variant is Variant.CLASSIC and not state.config.money
    mwc = review.mwc_loss if classic_match else None
    return f"{line}\n{R.loss(review.loss, review.severity.value, mwc)}"


def analysis_text(game: GameReview, table: Table, state: GameState) -> str:
    """The whole message for the game whose final state is ``state``, played at ``table``.

    Each player's figures, then the three worst decisions of the game.
    """
    result = game.analysis
    cube = state.config.cube_in_play
    # Match-winning chances come from the classic match equity table: classic matches only.
    match = state.variant is Variant.CLASSIC and not state.config.money
    players = [
        R.PlayerLine(
            name=_name(table, state, side),
            colour=T.color_name(side is Side.WHITE),
            decisions=report.decisions,
            error_rate=report.error_rate,
            doubtful=report.doubtful,
            errors=report.errors,
            blunders=report.blunders,
            cube_errors=report.cube_errors if cube else None,
            mwc_rate=report.mwc_rate if match else None,
            cube_decisions=report.cube_decisions,
            cube_rate=report.cube_rate,
        )
        for side, report in zip(Side, result.players, strict=True)
    ]
    worst = [decision_line(i, r, table) for i, r in enumerate(result.worst[:3], start=1)]
    title = R.analysis_title(T.VARIANT_NAMES[state.variant], state.game_number)
    thresholds = (DOUBTFUL, ERROR, BLUNDER)
    return R.analysis(title, players, worst, thresholds, game.seconds, match)


def worst_view(game: GameReview, table: Table) -> tuple[BoardView, str] | None:
    """The picture of the worst decision (its best play as numbered arrows) and its
    caption; None when no decision lost anything."""
    if not game.analysis.worst:
        return None
    review = game.analysis.worst[0]
    played = isinstance(review.best, Play)
    return decision_view(review, table), R.worst_caption(decision_line(1, review, table), played)


def decision_view(review: Review, table: Table) -> BoardView:
    """The board of a judged decision at ``table``: for a checker play, the best play as
    numbered arrows and the play made as thin red ones; for the cube, the position."""
    at = replace(table, state=review.state, notes=(), resign=None)
    view = replace(presenter.board_view(at), last_play=())
    if isinstance(review.best, Play):
        side = presenter.render_side(review.state.turn)
        steps = review.best.steps
        arrows = tuple(Arrow(side, s.src, s.dst, str(i)) for i, s in enumerate(steps, start=1))
        if isinstance(review.chosen, Play):  # the play made, apart from the best one
            made = tuple(Arrow(side, s.src, s.dst, made=True) for s in review.chosen.steps)
            arrows = made + arrows
        view = replace(view, arrows=arrows)
    return view
