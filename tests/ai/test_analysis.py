"""The post-game analysis: a planted blunder is found and ranked first, cube errors are
counted, the figures add up, and forced plays are not counted as decisions."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from engine import GameRecord, GameState, MatchConfig, Phase, Play, Variant
from engine.ai import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    DecisionKind,
    Level,
    Severity,
    analyse,
    choose_play,
)
from engine.ai.analysis import review_decision, severity
from engine.types import Side

from .helpers import position


@dataclass(frozen=True)
class Choice:
    state: GameState
    chosen: Play | bool


def scripted_game(variant: Variant, seed: int, plant_at: int) -> tuple[list[Choice], int]:
    """A single game of Medio against itself where the ``plant_at``-th play with a real
    choice is replaced by the play the network likes least, kept as a ``GameRecord`` (as
    the bot keeps every game) whose document is read back. Returns the record's decisions
    and the index of the planted one among them."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(variant, 1))
    record = GameRecord.start(state)
    planted_state: GameState | None = None
    while not state.is_over:
        before = state
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        else:
            plays = state.legal_plays()
            if not plays:
                state = state.confirm()
            else:
                play = choose_play(state, Level.MEDIO, rng)
                assert play is not None
                if len(plays) > 1 and planted_state is None and plant_at == 0:
                    play = _worst(state, plays)
                    planted_state = state
                plant_at -= len(plays) > 1
                state = state.play(play)
        record = record.follow(before, state)
    assert planted_state is not None, "the game ended before the planted play"
    decisions = GameRecord.from_doc(json.loads(json.dumps(record.to_doc()))).decisions()
    choices = [Choice(d.state, d.chosen) for d in decisions]
    planted = next(i for i, c in enumerate(choices) if c.state == planted_state)
    return choices, planted


def _worst(state: GameState, plays: list[Play]) -> Play:
    """The play that leaves the mover's checkers worst placed: all on the highest points."""
    from engine.ai.levels import ranked

    return ranked(state, deep=False)[-1][0]


def test_a_planted_blunder_is_found_and_ranked_first(variant: Variant) -> None:
    choices, planted = scripted_game(variant, seed=7, plant_at=4)
    result = analyse(choices)
    worst = result.worst[0]
    assert worst.index == planted
    assert worst.kind is DecisionKind.PLAY
    assert worst.chosen == choices[planted].chosen
    assert worst.best != worst.chosen
    assert worst.loss >= BLUNDER and worst.severity is Severity.BLUNDER
    side = choices[planted].state.turn
    report = result.players[side]
    assert report.blunders >= 1
    assert report.error_rate == pytest.approx(1000 * report.total_loss / report.decisions)
    # Each side's decisions are the plays with a choice it made: forced ones do not count.
    for s in Side:
        real = sum(1 for c in choices if c.state.turn is s and len(c.state.legal_plays()) > 1)
        assert result.players[s].decisions == real == result.players[s].plays
    # The worst decisions are sorted, and each side's own worst are kept for its message.
    losses = [r.loss for r in result.worst]
    assert losses == sorted(losses, reverse=True)
    assert result.worst_of(side)[0].index == planted


def test_the_best_play_loses_nothing(variant: Variant) -> None:
    choices, planted = scripted_game(variant, seed=3, plant_at=2)
    state = choices[planted].state
    review = review_decision(0, state, None)
    assert review is not None and isinstance(review.best, Play)
    again = review_decision(0, state, review.best)
    assert again is not None and again.loss == 0.0 and again.severity is Severity.NONE


def test_dropping_an_even_opening_double_is_a_cube_blunder() -> None:
    """At the start of a 5-point match nobody is ahead: a double is an easy take, and
    dropping it hands over a point for nothing."""
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, 5)).roll_opening(4, 2)
    state = state.play(state.legal_plays()[0])  # White opened; Black may double now
    assert state.phase is Phase.ROLL and state.cube_available
    doubled = state.double()
    choices = [Choice(state, True), Choice(doubled, False)]
    result = analyse(choices)
    drop = next(r for r in result.worst if r.kind is DecisionKind.TAKE)
    assert drop.side is Side.WHITE and drop.chosen is False and drop.best is True
    assert drop.severity is Severity.BLUNDER
    assert result.players[Side.WHITE].cube_errors == 1
    assert result.players[Side.WHITE].cube_decisions == 1


def test_a_clear_no_double_is_no_decision_and_a_hopeless_double_a_blunder() -> None:
    # Far behind (Black bears off next turn, White has borne off nothing).
    behind = position(Variant.CLASSIC, {6: 15}, {1: 2}, length=5)
    # Not doubling is no decision at all...
    assert review_decision(0, behind, False) is None
    # ... doubling is one, and a blunder: Black takes and wins twice as much.
    review = review_decision(0, behind, True)
    assert review is not None and review.kind is DecisionKind.DOUBLE
    assert review.best is False and review.severity is Severity.BLUNDER


def test_severity_thresholds() -> None:
    assert severity(0.0) is Severity.NONE
    assert severity(DOUBTFUL - 1e-9) is Severity.NONE
    assert severity(DOUBTFUL) is Severity.DOUBTFUL
    assert severity(ERROR) is Severity.ERROR
    assert severity(BLUNDER) is Severity.BLUNDER
    assert (DOUBTFUL, ERROR, BLUNDER) == (0.04, 0.08, 0.16)
