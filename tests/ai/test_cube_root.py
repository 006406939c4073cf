"""Cube decisions valued two plies deep with the cube decided at every node below the root
(``engine.ai.cube_root``, as GNU Backgammon's 2-ply cube analysis), for the analysis and
the cube hint."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import GameState, MatchConfig, Variant, position_id_for
from engine.ai import CubeAdvice, DecisionKind, cube, cube_hint
from engine.ai.analysis import BLUNDER, Severity, cube_values, review_decision
from engine.ai.cube_root import tree_futures
from engine.game import Phase
from engine.gnubg import decode_position
from engine.types import Side

from .helpers import at_score, position, stored_decision


def _stored_turn(kind: str, length: int, seed: int, position_id: str) -> GameState:
    """The state of a turn not doubled in a stored self-play match (``benchmarks/data``)."""
    decision = stored_decision((kind, length, seed), 0, DecisionKind.DOUBLE, position_id)
    assert decision.chosen is False and decision.state.phase is Phase.ROLL
    return decision.state


def test_a_missed_double_gnubg_calls_very_bad_is_a_blunder() -> None:
    """A money turn not doubled (Jacoby rule, cube centred) that GNU Backgammon's 2-ply
    analysis charges 0.156, very bad: valued once from the averaged chances the analysis
    charged 0.115, an error; with the cube decided at every node below it, a blunder."""
    state = _stored_turn("money", 0, 1001, "s1zgICiwZ/ABEQ")
    review = review_decision(0, state, False)
    assert review is not None and review.best is True
    assert review.loss > BLUNDER and review.severity is Severity.BLUNDER


def test_a_no_double_gnubg_finds_not_close_is_no_decision() -> None:
    """A money turn not doubled where not doubling is right by more than the close margin
    at 2-ply in GNU Backgammon (it does not count it): valued once from the averaged
    chances the analysis found it close (0.153) and counted it; through the tree it does
    not (0.183)."""
    state = _stored_turn("money", 0, 1016, "zazBABMzG3ADQQ")
    assert review_decision(0, state, False) is None


def test_a_sure_cash_is_double_pass_not_too_good() -> None:
    """White bears off in at most two rolls and Black, with checkers off, cannot win
    first: every line of the tree ends in the cash, so playing on is worth exactly the
    cash (no tie-break between passes may lift it above), and the right action is double,
    pass, for the analysis and the hint."""
    state = at_score(
        position(Variant.CLASSIC, {1: 3}, {6: 5}, length=5),
        white_away=2,
        black_away=2,
        post=False,
    )
    futures = tree_futures(state, Side.WHITE)
    assert futures.no_double == pytest.approx(futures.double_pass, abs=1e-12)
    assert futures.action is cube.CubeAction.DOUBLE_PASS
    assert cube_values(state).should_double
    assert cube_hint(state).advice is CubeAdvice.DOUBLE
    assert cube_hint(state.double()).advice is CubeAdvice.PASS


def test_the_double_pass_is_the_cash_and_a_cube_that_cannot_gain_is_pointless() -> None:
    """Double/pass is the cash at the current cube; the leader after the Crawford game
    (one point away) gains nothing by doubling."""
    state = position(Variant.CLASSIC, {6: 5, 5: 5}, {6: 8}, length=5)
    leader = at_score(state, white_away=1, black_away=3, post=True)
    futures = tree_futures(leader, Side.WHITE)
    assert futures.pointless and not futures.double
    even = at_score(state, white_away=3, black_away=3, post=False)
    futures = tree_futures(even, Side.WHITE)
    assert futures.double_pass == pytest.approx(cube.met(2, 3, False))


def _money_redouble(position_id: str, cube_value: int) -> GameState:
    """A money position (gnubg Position ID) with White on roll owning the cube at
    ``cube_value``: a redouble decision."""
    not_on_roll, on_roll = decode_position(position_id)
    config = MatchConfig(Variant.CLASSIC, 0)
    state = GameState(
        config, (on_roll, not_on_roll), Phase.ROLL, Side.WHITE, has_moved=(True, True)
    )
    state = replace(state, cube_value=cube_value, cube_owner=Side.WHITE)
    assert position_id_for(state) == position_id and state.cube_available
    return state


@pytest.mark.parametrize(
    ("position_id", "cube_value", "gnubg_says"),
    [
        # GNU Backgammon 2-ply: "Redouble, pass"; one ply ahead the hint said too good.
        ("27YLAAiXbQAAAA", 2, CubeAdvice.DOUBLE),
        # GNU Backgammon 2-ply: "Too good to redouble, pass"; one ply ahead: redouble.
        ("ttsjAAh37oYAAA", 4, CubeAdvice.TOO_GOOD),
    ],
)
def test_the_cube_hint_tells_too_good_from_a_cash_as_gnubg(
    position_id: str, cube_value: int, gnubg_says: CubeAdvice
) -> None:
    """Two money positions with the cube on White's side, from the hint benchmark's
    sample, where the cash and playing on for the gammon are close: one ply ahead the
    hint erred one way in each; two plies deep with the cube decided at every node it
    agrees with GNU Backgammon 2-ply both ways, and the answer is a pass."""
    state = _money_redouble(position_id, cube_value)
    assert cube_hint(state, plies=1).advice is not gnubg_says  # as the hint said before
    assert cube_hint(state).advice is gnubg_says
    assert cube_hint(state.double()).advice is CubeAdvice.PASS
