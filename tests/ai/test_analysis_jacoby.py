"""The analysis under the Jacoby rule (money play, cube centred): gammons count only once
the cube is turned, yet they are what the cube is worth, as GNU Backgammon values it.
The centred cube's value counts one point for playing on or cashing, while each side's
cash point sees the gammons the turned cube would count."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import GameState, MatchConfig, Phase, Variant
from engine.ai import cube
from engine.ai.analysis import cube_values, cubeful_play_equities
from engine.ai.hints import two_ply_chances
from engine.gnubg import decode_position
from engine.types import Side

from .helpers import position

#: White on roll, a closed board, two Black checkers on the bar: gammons galore.
WHITE = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 8: 2}
BLACK = {25: 2, 19: 3, 13: 5, 8: 3, 6: 2}


def _money_view(p: list[float]) -> cube.View:
    probs = np.array(p)
    return cube.View.of(Variant.CLASSIC, probs, cube.MONEY_AWAY, cube.MONEY_AWAY, False, 0.68)


def test_without_gammons_the_jacoby_cube_is_the_plain_centred_cube() -> None:
    view = _money_view([0.62, 0.0, 0.0, 0.0, 0.0])
    assert cube.cubeful_jacoby(view, 1) == pytest.approx(
        cube.cubeful(view, 1, cube.Owner.CENTRE), abs=1e-12
    )


def test_the_threat_of_a_gammon_brings_the_cash_closer_but_a_cash_is_one_point() -> None:
    """62 % with many gammons: the opponent passes sooner than without them, so holding
    the centred cube is worth more than the single-game chances alone say; but short of
    turning the cube the gammons score nothing, so less than if they counted."""
    gammons = _money_view([0.62, 0.3, 0.01, 0.05, 0.0])
    singles = _money_view([0.62, 0.0, 0.0, 0.0, 0.0])
    jacoby = cube.cubeful_jacoby(gammons, 1)
    assert jacoby > cube.cubeful(singles, 1, cube.Owner.CENTRE) + 0.005
    assert jacoby < cube.cubeful(gammons, 1, cube.Owner.CENTRE)


def _mover_state() -> GameState:
    state = position(Variant.CLASSIC, WHITE, BLACK, length=0).roll(3, 1)
    assert state.config.jacoby_in_force and state.cube_owner is None
    return state


def test_a_play_that_gives_up_gammons_loses_equity_under_the_jacoby_rule() -> None:
    """Two plays with the same winning chance, one with gammons: the cube still in the
    middle, the gammonish one is worth more, since the opponent will pass a double
    sooner (before, gammons were zeroed and the two tied)."""
    state = _mover_state()
    plays = state.legal_plays()[:2]
    rows = np.array([[0.7, 0.35, 0.02, 0.02, 0.0], [0.7, 0.0, 0.0, 0.02, 0.0]])
    gammonish, plain = cubeful_play_equities(state, plays, rows)
    assert gammonish > plain + 0.02
    off = replace(state, config=MatchConfig(Variant.CLASSIC, 0, jacoby=False))
    free, _ = cubeful_play_equities(off, plays, rows)
    assert gammonish < free  # with the rule off the gammons count in full


def test_not_doubling_a_gammonish_position_values_the_centred_cube_the_jacoby_way() -> None:
    """A money position from play (White ahead, Black with gammon risk): the centred
    cube's future is its Jacoby value, above what single-game chances alone give it.
    Valued two plies deep with the cube decided at every node (``cube_root``), the
    leaves with the Jacoby cash points, it stays near the root's Jacoby value of the
    averaged chances."""
    not_on_roll, on_roll = decode_position("wWvwATDQc/ABRA")
    config = MatchConfig(Variant.CLASSIC, 0)
    state = GameState(
        config, (on_roll, not_on_roll), Phase.ROLL, Side.WHITE, has_moved=(True, True)
    )
    values = cube_values(state)
    futures = values.futures
    on, off = state.checkers[Side.WHITE], state.checkers[Side.BLACK]
    p = two_ply_chances(state, Side.WHITE)
    assert p[1] > 0.1  # gammons to threaten
    view = cube.View.of(Variant.CLASSIC, p, 25, 25, False, cube.cube_efficiency(on, off))
    singles = p.copy()
    singles[1:] = 0.0
    plain = cube.View.of(Variant.CLASSIC, singles, 25, 25, False, view.x)
    assert futures.no_double == pytest.approx(cube.cubeful_jacoby(view, 1), abs=0.05 * values.scale)
    gain = (futures.no_double - cube.cubeful(plain, 1, cube.Owner.CENTRE)) / values.scale
    assert gain > 0.03  # normalised equity: the gammons' share of the cube's value
    assert not values.should_double  # holding is right: no missed double to charge
