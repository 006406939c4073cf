"""The hint's two-ply stage with the cube decided where each side is on roll (``cube_tree``).

The reference figures quoted here are GNU Backgammon 1.07's 2-ply answers for the same
positions (normalised cubeful equity, "EMG"), as printed by its ``hint`` command:
published outputs used as test data, nothing of its program.
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
from engine.ai import checker_hint, cube
from engine.ai.cube_tree import CubeState, cube_at_every_node, decided, leaf_mwc, may_double
from engine.ai.hints import _view, normalised, play_mwc
from engine.ai.levels import reply_rules, valued_cube
from engine.ai.outcomes import flip
from engine.ai.search import ReplyRules, TwoPlyTree, grow, look_ahead
from engine.gnubg import decode_match, decode_position


def from_gnubg(position_id: str, match_id: str) -> GameState:
    """The position of gnubg IDs, White (gnubg's player on roll) with the Match ID's dice
    and cube (the money game with the Jacoby rule where the Match ID's length is 0)."""
    info = decode_match(match_id)
    assert info.on_roll == 0
    theirs, mine = decode_position(position_id)
    config = MatchConfig(Variant.CLASSIC, length=info.match_length, cube=True)
    state = GameState(config, (mine, theirs), Phase.ROLL, Side.WHITE)
    owner = None if info.cube_owner is None else (Side.WHITE, Side.BLACK)[info.cube_owner]
    state = replace(
        state,
        has_moved=(True, True),
        score=info.score,
        cube_value=info.cube_value,
        cube_owner=owner,
    )
    return state.roll(*info.dice)


# 5-point match, the mover needs 4 and the opponent 2, cube 1 centred, roll 4-3. gnubg
# 2-ply: 8/5 8/4 +1.002, 5/1 4/1 +1.000, 5/2* 5/1 +0.854, 8/4 5/2* +0.819. The network's
# chances of the loose hit are gnubg's (rolled out: 0.808 to win, 0.218 gammons); valued
# once from chances averaged over both rolls, its cube leverage made it the hint's first
# play by 0.02, a loss of 0.183.
LOOSE_HIT = ("2HuOABCzezMAAA", "MAGuABAAGAAE")


def test_the_loose_hit_position_is_read_as_gnubg_shows_it() -> None:
    state = from_gnubg(*LOOSE_HIT)
    assert (position_id_for(state), match_id_for(state)) == LOOSE_HIT


def test_the_quiet_play_is_first_where_the_loose_hit_only_averages_well() -> None:
    state = from_gnubg(*LOOSE_HIT)
    hint = checker_hint(state, 5)
    names = [format_play(p) for p, _ in hint.plays]
    assert names[0] == "8/5 8/4"
    # gnubg's two best plays, within 0.002 of each other, are the hint's two best, and
    # the hit is at least a tenth of a point behind (gnubg: 0.183).
    assert set(names[:2]) == {"8/5 8/4", "5/1 4/1"}
    value = {
        n: normalised(state, state.turn, v) for n, (_, v) in zip(names, hint.plays, strict=True)
    }
    assert value["8/5 8/4"] - value["8/4 5/2*"] > 0.1


# Money games where the cube decided at every node changed the hint to GNU Backgammon's
# best play (gnubg 2-ply, points per cube): a bear-off with the cube at 2 on the mover's
# side (6/4 6/3 +1.024, 4/2 3/off +1.007: keeping a smooth position for the redouble), and
# an opening-like position with the cube centred (8/5 8/4 +0.822, 13/6 +0.815).
MONEY_CHANGED = (
    ("trsDADD23QYAAA", "AYEJAAAAAAAA", "6/4 6/3"),
    ("uzsDAAxjdx4EAA", "MIERAAAAAAAA", "8/5 8/4"),
)


@pytest.mark.parametrize(("position_id", "match_id", "best"), MONEY_CHANGED)
def test_money_hints_that_agree_with_gnubg(position_id: str, match_id: str, best: str) -> None:
    state = from_gnubg(position_id, match_id)
    assert (position_id_for(state), match_id_for(state)) == (position_id, match_id)
    assert state.config.money
    hint = checker_hint(state, 3)
    assert format_play(hint.plays[0][0]) == best


def _tree_of(state: GameState) -> TwoPlyTree:
    """The two-ply tree of the first three plays of the roll."""
    plays = state.legal_plays()[:3]
    ahead = look_ahead(state.variant, plays, reply_rules(state))
    tree = grow(state.variant, ahead, [0, 1, 2], ReplyRules(state.variant))
    assert tree is not None
    return tree


# A short race (both sides bear off within a few rolls, so games end inside the tree).
def _short_race(config: MatchConfig, **fields: object) -> GameState:
    mine = [0] * 26
    theirs = [0] * 26
    mine[0], mine[1], mine[2], mine[3] = 11, 2, 1, 1
    theirs[0], theirs[1], theirs[4], theirs[5] = 10, 2, 2, 1
    state = GameState(config, (tuple(mine), tuple(theirs)), Phase.ROLL, Side.WHITE)
    return replace(state, has_moved=(True, True), **fields).roll(2, 1)


def test_with_a_dead_cube_the_tree_values_the_averaged_chances() -> None:
    """In the Crawford game no cube can be turned: every node is worth its results at the
    cube, so the tree's value is the dead value of its averaged chances (games ended at
    either ply included)."""
    config = MatchConfig(Variant.CLASSIC, length=5)
    state = _short_race(config, score=(2, 4), crawford=True, crawford_done=True)
    tree = _tree_of(state)
    # Some games end in the tree: a double bears my last checkers off.
    assert sum(w for _, w, _, _ in tree.lower.groups) < len(tree.lower.out) - 1
    dead = [_dead_mwc(state, p) for p in tree.probs()]
    for depth in (1, 2):
        assert cube_at_every_node(state, tree, depth) == pytest.approx(dead, abs=1e-9)


def _dead_mwc(state: GameState, p: np.ndarray) -> float:
    """The mover's MWC from chances ``p``, the game played out at the cube."""
    me = state.player_of(state.turn)
    a, b = 5 - state.score[me], 5 - state.score[1 - me]
    view = cube.View.of(state.variant, p, a, b, state.crawford_done, 0.0)
    return view.dead(valued_cube(state))


def test_a_side_doubles_at_a_node_only_when_the_double_is_worth_more() -> None:
    state = _short_race(MatchConfig(Variant.CLASSIC, length=7))
    mover = state.turn
    centred = CubeState(1, None)
    assert may_double(state, mover, centred)
    assert not may_double(state, mover, CubeState(2, mover.other))
    cash = cube.met(7 - 1, 7, False)
    # Playing on is worth more than a take: no double.
    assert decided(state, mover, centred, cash - 0.05, cash - 0.06) == cash - 0.05
    # A take worth more than playing on, less than the cash: double, take.
    assert decided(state, mover, centred, cash - 0.05, cash - 0.02) == cash - 0.02
    # A take worth more than the cash: the taker passes, the doubler cashes (plus a tie
    # break of a thousandth of how far past the pass it is).
    passed = decided(state, mover, centred, cash - 0.05, cash + 0.3)
    assert cash < passed == pytest.approx(cash, abs=1e-3)
    # Nobody doubles a cube they do not hold.
    theirs = CubeState(2, mover.other)
    assert decided(state, mover, theirs, cash - 0.05, cash - 0.02) == cash - 0.05


def test_a_leaf_is_valued_as_the_hint_values_a_position() -> None:
    """With the cube as it is, a leaf's value is the cube life the hint has always given
    the side on roll (``hints.play_mwc`` through the same function)."""
    state = from_gnubg(*LOOSE_HIT)

    play = next(p for p in state.legal_plays() if format_play(p) == "8/5 8/4")
    chances = np.array([0.7, 0.2, 0.01, 0.1, 0.005])
    opp = state.turn.other
    view = _view(state, opp, flip(state.variant, chances), play.theirs, play.mine)
    here = CubeState(valued_cube(state), None)
    assert play_mwc(state, play, chances) == pytest.approx(1.0 - leaf_mwc(state, opp, view, here))
