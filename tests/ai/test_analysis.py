"""The post-game analysis: a planted blunder is found and ranked first, cube errors are
counted, the figures add up, and only decisions with a choice are counted, as GNU
Backgammon 1.07 counts them: no forced play, no turn with a dead cube, cube errors
normalised by the cube's value, its thresholds for the marks."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace

import numpy as np
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
from engine.ai.analysis import (
    CLOSE_CUBE,
    cube_is_live,
    cube_values,
    match_unit,
    play_equities,
    review_decision,
    severity,
)
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


def test_severity_thresholds_are_gnubg_1_07_defaults() -> None:
    """GNU Backgammon 1.07's "show analysis": doubtful 0.030, bad 0.060, very bad 0.120,
    a decision marked when it lost strictly more than the threshold."""
    assert (DOUBTFUL, ERROR, BLUNDER) == (0.03, 0.06, 0.12)
    assert CLOSE_CUBE == 0.16
    assert severity(0.0) is Severity.NONE
    assert severity(DOUBTFUL) is Severity.NONE
    assert severity(DOUBTFUL + 1e-6) is Severity.DOUBTFUL
    assert severity(ERROR + 1e-6) is Severity.ERROR
    assert severity(BLUNDER + 1e-6) is Severity.BLUNDER


def _even_start(length: int) -> GameState:
    """Black on roll after White's opening 4-2, the cube centred: an even position."""
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, length)).roll_opening(4, 2)
    return state.play(state.legal_plays()[0])


def _at_score(
    state: GameState,
    score: tuple[int, int],
    *,
    done: bool,
    cube: int = 1,
    owner: Side | None = None,
) -> GameState:
    return replace(
        state,
        score=score,
        crawford=False,
        crawford_done=done,
        cube_value=cube,
        cube_owner=owner,
    )


def test_a_forced_play_is_no_decision() -> None:
    # One checker left on the 6 point, roll 6-5: every order bears it off, one position.
    state = position(Variant.CLASSIC, {6: 1}, {24: 2, 13: 5, 8: 3, 6: 5}).roll(6, 5)
    assert len(state.legal_plays()) == 1
    assert review_decision(0, state, state.legal_plays()[0]) is None


@pytest.mark.parametrize(
    ("score", "why"),
    [
        ((4, 4), "double match point: a single win ends the match"),
        ((2, 4), "post-Crawford, Black leads needing 1: its cube is dead"),
    ],
)
def test_not_doubling_with_a_dead_cube_is_no_decision(score: tuple[int, int], why: str) -> None:
    """The engine lets the player double (the rules allow it), but doubling cannot gain:
    GNU Backgammon does not count the turn as a cube decision."""
    state = _at_score(_even_start(5), score, done=True)
    assert state.cube_available, why
    assert not cube_is_live(state), why
    assert review_decision(0, state, False) is None, why


def test_a_cube_at_its_value_or_above_what_is_needed_is_dead() -> None:
    # Black owns the cube at 2 and needs 2 points: a win at 2 takes the match.
    state = _at_score(_even_start(7), (0, 5), done=False, cube=2, owner=Side.BLACK)
    assert state.cube_available and not cube_is_live(state)
    assert review_decision(0, state, False) is None
    # The trailer after the Crawford game keeps a live cube (and should double at once).
    trailer = _at_score(_even_start(5), (4, 2), done=True)
    assert cube_is_live(trailer)
    review = review_decision(0, trailer, False)
    assert review is not None and review.best is True and review.loss > 0


def test_a_cube_error_reads_the_same_at_cube_1_and_2() -> None:
    """GNU Backgammon reports cube errors normalised by the cube: dropping the same sound
    take of a money game costs twice the points at cube 2, and reads as the same error."""
    money = _even_start(0)
    at_1 = money.double()
    at_2 = _at_score(money, (0, 0), done=False, cube=2, owner=Side.BLACK).double()
    drop_1 = review_decision(1, at_1, False)
    drop_2 = review_decision(1, at_2, False)
    assert drop_1 is not None and drop_2 is not None
    assert drop_1.best is True and drop_2.best is True
    assert drop_2.loss == pytest.approx(drop_1.loss, rel=0.25)
    assert drop_1.mwc_loss == drop_2.mwc_loss == 0.0  # no match to lose in money play


def test_a_match_cube_error_is_also_reported_in_match_winning_chance() -> None:
    """In a match the loss is kept both normalised and in MWC, converted with half the
    swing of a game at the current cube (GNU Backgammon's eq2mwc)."""
    state = _at_score(_even_start(7), (0, 0), done=False, cube=2, owner=Side.BLACK).double()
    drop = review_decision(1, state, False)
    assert drop is not None and drop.loss > BLUNDER
    unit = match_unit(state, Side.BLACK)
    assert 0.0 < unit < 0.5
    assert drop.mwc_loss == pytest.approx(drop.loss * unit)
    result = analyse([Choice(state, False)])
    report = result.players[Side.WHITE]
    assert report.mwc_rate == pytest.approx(100 * drop.mwc_loss)
    assert report.cube_rate == pytest.approx(report.error_rate) == pytest.approx(1000 * drop.loss)


def test_plays_in_a_match_are_valued_by_the_match_score() -> None:
    """GNU Backgammon values plays in match equity: a gammon counts nothing in a 1-point
    match or at double match point, and counts in a 5-point match at 0-0."""
    rows = np.array([[0.6, 0.4, 0.1, 0.1, 0.0], [0.6, 0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    single = _even_start(1)
    dmp = _at_score(_even_start(5), (4, 4), done=True)
    for state in (single, dmp):
        a, b = play_equities(state, rows)
        assert a == pytest.approx(b) == pytest.approx(0.2, abs=1e-6)
    a, b = play_equities(_even_start(5), rows)
    assert a > b + 0.1 and b == pytest.approx(0.2, abs=1e-6)
    # Money play: cubeless points; gammons wait for the cube to be turned (Jacoby rule).
    a, b = play_equities(_even_start(0), rows)
    assert a == pytest.approx(b) == pytest.approx(0.2, abs=1e-6)
    turned = _at_score(_even_start(0), (0, 0), done=False, cube=2, owner=Side.WHITE)
    a, b = play_equities(turned, rows)
    assert a == pytest.approx(0.2 + 0.4 + 0.1 - 0.1) and b == pytest.approx(0.2)


def test_the_analysis_keeps_every_counted_decision_in_order() -> None:
    choices, _ = scripted_game(Variant.CLASSIC, seed=7, plant_at=4)
    result = analyse(choices)
    assert [r.index for r in result.reviews] == sorted(r.index for r in result.reviews)
    assert len(result.reviews) == sum(p.decisions for p in result.players)
    assert all(len(choices[r.index].state.legal_plays()) > 1 for r in result.reviews)


def test_under_the_jacoby_rule_a_take_counts_the_gammons_of_the_turned_cube() -> None:
    """Gammons wait for the cube to be turned (Jacoby), so taking a double turns it: the
    double's futures count them, with or without the rule, as GNU Backgammon values them;
    only the centred cube's future leaves them out."""
    # White on roll, a closed board, two Black checkers on the bar: gammons galore.
    white = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 8: 2}
    black = {25: 2, 19: 3, 13: 5, 8: 3, 6: 2}
    jacoby = position(Variant.CLASSIC, white, black, length=0)
    plain = replace(jacoby, config=MatchConfig(Variant.CLASSIC, 0, jacoby=False))
    assert jacoby.config.jacoby_in_force and not plain.config.jacoby_in_force
    with_rule, without = cube_values(jacoby).futures, cube_values(plain).futures
    assert with_rule.double_take == pytest.approx(without.double_take)
    assert with_rule.no_double < without.no_double  # the centred cube: no gammons
    # Black should pass: taking gives White more than the point it would cash.
    review = review_decision(1, jacoby.double(), True)
    assert review is not None and review.best is False and review.severity is Severity.BLUNDER
