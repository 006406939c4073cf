"""Hints at the score and the cube: what they rest on, their values, and the cube's advice.

The reference figures quoted here are GNU Backgammon 1.07's 2-ply answers for the same
positions (its cubeless chances and cubeful match-winning chances), as printed by its
``hint`` command: published outputs used as test data, nothing of its program.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import (
    GameState,
    MatchConfig,
    Phase,
    Side,
    Variant,
    format_play,
    match_id_for,
    position_id_for,
)
from engine.ai import (
    CubeAdvice,
    HintUnit,
    checker_hint,
    cube_available_to_hint,
    cube_hint,
)
from engine.ai.hints import play_mwc
from engine.gnubg import decode_match, decode_position


def from_ids(
    position_id: str,
    config: MatchConfig,
    *,
    score: tuple[int, int] = (0, 0),
    dice: tuple[int, int] | None = None,
    **fields: object,
) -> GameState:
    """The position of a gnubg Position ID, White on roll (then rolling ``dice``)."""
    theirs, mine = decode_position(position_id)
    state = GameState(config, (mine, theirs), Phase.ROLL, Side.WHITE)
    state = replace(state, has_moved=(True, True), score=score, **fields)
    return state.roll(*dice) if dice else state


# Position ID bHfAgDDczOABGA, Match ID MIF6AAAAAAAE: a 3-point match at 0-0, cube 1, 6-5.
REGRESSION = "bHfAgDDczOABGA"
#: gnubg 2-ply: the play, its cubeless chances (win, gammon, backgammon, lose gammon,
#: lose backgammon) and its cubeful match-winning chance.
GNUBG_2PLY = (
    ("13/2", (0.368, 0.099, 0.004, 0.222, 0.013), 0.4352),
    ("13/8 13/7", (0.346, 0.086, 0.004, 0.232, 0.013), 0.4176),
    ("23/17 13/8", (0.361, 0.118, 0.010, 0.356, 0.014), 0.4013),
)


REGRESSION_MATCH = "MIF6AAAAAAAE"


def regression_state() -> GameState:
    info = decode_match(REGRESSION_MATCH)
    config = MatchConfig(Variant.CLASSIC, length=info.match_length)
    return from_ids(REGRESSION, config, score=info.score, dice=info.dice)


def test_the_regression_position_is_read_as_gnubg_shows_it() -> None:
    state = regression_state()
    assert (position_id_for(state), match_id_for(state)) == (REGRESSION, REGRESSION_MATCH)


def test_at_the_score_the_plays_are_valued_as_gnubg_values_them() -> None:
    """Given gnubg's own chances, the hint's valuation (match equity table, gammons at the
    score, the opponent's cube) gives gnubg's cubeful match-winning chances within half a
    point and the same order: the score and the cube are not what separates the hints."""
    state = regression_state()
    by_name = {format_play(p): p for p in state.legal_plays()}
    values = []
    for name, chances, reference in GNUBG_2PLY:
        mwc = play_mwc(state, by_name[name], np.array(chances))
        assert mwc == pytest.approx(reference, abs=0.005), name
        values.append(mwc)
    assert values == sorted(values, reverse=True)


def test_the_regression_hint_is_at_the_score_in_match_winning_chances() -> None:
    hint = checker_hint(regression_state(), 3)
    basis = hint.basis
    assert (basis.money, basis.length, basis.score, basis.cube, basis.owner) == (
        False,
        3,
        (0, 0),
        1,
        None,
    )
    assert basis.unit is HintUnit.MWC and not basis.crawford
    assert all(0.3 < v < 0.5 for _, v in hint.plays)
    assert [v for _, v in hint.plays] == sorted((v for _, v in hint.plays), reverse=True)
    assert "13/2" in [format_play(p) for p, _ in hint.plays]


def test_plays_the_opponent_would_double_out_are_ranked_by_how_close_to_a_take() -> None:
    """After either play the opponent doubles and the mover should pass: both are worth
    about the cube's value, yet the one that leaves the mover more chances ranks higher
    (without the tie-break they tied exactly and ranked in generation order)."""
    state = regression_state()
    play = state.legal_plays()[0]
    hopeless = play_mwc(state, play, np.array([0.10, 0.0, 0.0, 0.0, 0.0]))
    poor = play_mwc(state, play, np.array([0.15, 0.0, 0.0, 0.0, 0.0]))
    assert hopeless < poor
    assert poor == pytest.approx(hopeless, abs=1e-3)


@pytest.mark.xfail(
    strict=True,
    reason="the network overrates 23/17 13/8: 0.41 to win at 2-ply where gnubg and full "
    "rollouts say 0.36; neither the score, the cube decided at every node, a 3-ply search "
    "nor four fine-tunes towards rollouts change the order for good (two turned it by "
    "0.002 and 0.0001 at a cost elsewhere; see engine/ai/weights/TRAINING.md)",
)
def test_the_regression_hint_is_gnubgs_best_play() -> None:
    best, _ = checker_hint(regression_state(), 1).plays[0]
    assert format_play(best) == "13/2"


# A race, money game with the Jacoby rule: gnubg 2-ply says double, take (no double
# +0.750, double/take +0.791, double/pass +1.000).
RACE_DOUBLE_TAKE = "uDvOAQC4O3cAAA"
# The opponent has three checkers on the bar against a closed board: gnubg 2-ply says too
# good to double, pass, at 0-0 in a 7-point match (no double 2.794 in normalised equity).
TOO_GOOD = "APj9AHDbtjkAAA"


def test_cube_hint_in_a_clear_double_take() -> None:
    state = from_ids(RACE_DOUBLE_TAKE, MatchConfig(Variant.CLASSIC, length=0))
    assert cube_available_to_hint(state)
    advice = cube_hint(state)
    assert advice.advice is CubeAdvice.DOUBLE and not advice.doubled
    assert advice.basis.unit is HintUnit.POINTS and advice.basis.money
    assert advice.no_double < advice.double_take < advice.double_pass == pytest.approx(1.0)
    answer = cube_hint(state.double())
    assert answer.doubled and answer.advice is CubeAdvice.TAKE
    # The same three futures, seen from the doubler's side either way.
    assert answer.double_take == pytest.approx(advice.double_take)


def test_cube_hint_in_a_clear_too_good_position() -> None:
    state = from_ids(TOO_GOOD, MatchConfig(Variant.CLASSIC, length=7))
    advice = cube_hint(state)
    assert advice.advice is CubeAdvice.TOO_GOOD
    assert advice.basis.unit is HintUnit.MWC
    assert advice.double_pass < advice.no_double < advice.double_take
    assert cube_hint(state.double()).advice is CubeAdvice.PASS


def test_cube_hint_values_a_redouble_at_the_cube_in_money() -> None:
    """Money with the cube at 2 on the doubler's side: a pass gives 2 points."""
    state = from_ids(
        RACE_DOUBLE_TAKE,
        MatchConfig(Variant.CLASSIC, length=0),
        cube_value=2,
        cube_owner=Side.WHITE,
    )
    advice = cube_hint(state)
    assert advice.basis.cube == 2 and advice.basis.owner == "me"
    assert advice.double_pass == pytest.approx(2.0)


def test_no_cube_hint_in_the_crawford_game_and_its_plays_are_dead_cube() -> None:
    config = MatchConfig(Variant.CLASSIC, length=5)
    state = from_ids(RACE_DOUBLE_TAKE, config, score=(2, 4), crawford=True, crawford_done=True)
    assert not cube_available_to_hint(state)
    with pytest.raises(ValueError, match="no cube decision"):
        cube_hint(state)
    hint = checker_hint(state.roll(3, 1), 2)
    assert hint.basis.crawford and not hint.basis.post_crawford
    assert hint.basis.score == (2, 4)


def test_post_crawford_the_trailer_may_double() -> None:
    config = MatchConfig(Variant.CLASSIC, length=5)
    state = from_ids(RACE_DOUBLE_TAKE, config, score=(2, 4), crawford_done=True)
    assert cube_available_to_hint(state)
    advice = cube_hint(state)
    assert advice.basis.post_crawford and not advice.basis.crawford
    # The leader takes (gnubg 2-ply: optional double, take).
    assert cube_hint(state.double()).advice is CubeAdvice.TAKE


def test_a_single_game_is_ranked_by_the_chance_of_winning_it() -> None:
    state = from_ids(REGRESSION, MatchConfig(Variant.CLASSIC, length=1), dice=(5, 6))
    hint = checker_hint(state, 5)
    assert hint.basis.length == 1 and hint.basis.unit is HintUnit.MWC
    assert not cube_available_to_hint(from_ids(REGRESSION, MatchConfig(Variant.CLASSIC)))


def test_a_money_hint_is_in_points() -> None:
    state = from_ids(REGRESSION, MatchConfig(Variant.CLASSIC, length=0), dice=(6, 5))
    hint = checker_hint(state, 2)
    assert hint.basis.money and hint.basis.unit is HintUnit.POINTS
    assert all(-3.0 < v < 3.0 for _, v in hint.plays)
