"""A cube decision valued two plies deep with the cube decided at every node below it.

Why: a cube decision read from chances averaged over both sides' next rolls values the
cube's life once, at the root, as if the game could only drift. In the game the cube is
turned, or not, after each roll: after the doubler's good rolls the taker would pass a
redouble (so those rolls are worth the cash, not more), after its bad ones the taker
redoubles and the doubler may have to pass. GNU Backgammon's n-ply cubeful evaluation
(read, not copied) values a cube decision that way: the doubler's 21 rolls, each answered
by its best play; the other side then on roll decides its own cube for every cube state
it may hold; after each of its 21 replies the doubler is on roll again, a leaf valued with
Janowski's cube life (``cube_tree.leaf_mwc``, the model and cube efficiency the hints use).
The root then compares the cube as it is (no double) with the cube doubled and taken, and
with the cash (double/pass).

The plays are chosen as the analysis's former 2-ply estimate chose them
(``hints.two_ply_chances``: the doubler's best play at 0-ply, the replies' best at
0-ply), so the two valuations differ only in where the cube is decided.
"""

from __future__ import annotations

import numpy as np

from engine.ai import cube, cube_leaves
from engine.ai.arrays import Probs, counts_to_roll
from engine.ai.cube_tree import (
    CubeState,
    aways,
    decided_at,
    doubled,
    leaf_mwc,
    leaf_mwcs,
    leaves_of,
    live,
    may_double,
    next_states,
    settled,
    view_of,
)
from engine.ai.levels import valued_cube
from engine.ai.outcomes import equity
from engine.ai.search import ROLLS, Layer, ReplyRules, pre_roll, zero_ply
from engine.game import GameState
from engine.moves import Play
from engine.types import Side


def tree_futures(state: GameState, doubler: Side) -> cube.CubeAnalysis:
    """No double, double/take and double/pass for ``doubler`` (about to roll), in its MWC,
    each valued two plies deep with the cube decided at every node below the root."""
    root = CubeState(valued_cube(state), state.cube_owner)
    turned = doubled(root, doubler)
    roots = [root, turned]
    rolled = _after_rolls(state, doubler, roots)
    a, b = aways(state, doubler)
    return cube.CubeAnalysis(
        no_double=float(rolled[0]),
        double_take=float(rolled[1]),
        double_pass=cube.met(a - root.value, b, state.crawford_done),
        pointless=a <= root.value,
    )


def _after_rolls(state: GameState, doubler: Side, roots: list[CubeState]) -> Probs:
    """``doubler``'s MWC at each of ``roots`` (the cube after its decision), averaged over
    its 21 rolls: each roll's best play, then the other side's node."""
    variant = state.variant
    opp = doubler.other
    on, off = state.checkers[doubler], state.checkers[opp]
    rules = ReplyRules(variant, first_turn=not state.has_moved[doubler])
    total = np.zeros(len(roots))
    chosen: list[Play] = []
    weights: list[float] = []
    for d1, d2, w in ROLLS:
        plays = rules.generator(d1, d2).plays(on, off)
        if not plays:  # no move: the other side on roll in the same position
            p = pre_roll(variant, off, on)
            total += (w / 36.0) * _stuck(state, opp, p, roots)
            continue
        probs = zero_ply(variant, plays)
        chosen.append(plays[int(np.argmax(equity(variant, probs)))])
        weights.append(w / 36.0)
    if chosen:
        total += np.asarray(weights) @ _opponent_nodes(state, doubler, chosen, roots)
    return total


def _stuck(state: GameState, opp: Side, p: Probs, roots: list[CubeState]) -> Probs:
    """The doubler's MWC when it cannot move: the other side on roll with its 0-ply
    chances ``p``, its cube's life valued there (rare enough for no deeper look)."""
    board_on, board_off = state.checkers[opp], state.checkers[opp.other]
    x = cube.cube_efficiency(board_on, board_off) if state.config.cube_in_play else 0.0
    return np.array([1.0 - _leaf(state, opp, p, x, cs) for cs in roots])


def _opponent_nodes(
    state: GameState, doubler: Side, plays: list[Play], roots: list[CubeState]
) -> Probs:
    """Per play (the doubler's best for one roll) and root cube state, the doubler's MWC:
    the other side on roll decides its cube from its replies' values, each reply leaving
    the doubler on roll at a leaf."""
    opp = doubler.other
    rules = ReplyRules(state.variant, first_turn=not state.has_moved[opp])
    after = [(bytes(p.mine), bytes(p.theirs)) for p in plays]
    layer = Layer.expand(state.variant, after, rules)
    assert layer is not None  # no limit
    chosen, chances = layer.choose()  # the doubler's 0-ply chances on roll after each
    at_o = next_states(state, opp, roots)  # the cube states after the other's decision
    rows = [layer.rows[r] for r in chosen]
    leaf = np.zeros((len(rows), len(at_o)))
    if rows:
        me, them = counts_to_roll(rows)  # the doubler on roll, the other waiting
        x = cube.cube_efficiencies(me, them) if state.config.cube_in_play else None
        eff = np.zeros(len(rows)) if x is None else np.asarray(x, dtype=float)
        first: dict[bytes, int] = {}  # the same leaf reached by two rolls: valued once
        for g, row in enumerate(rows):
            first.setdefault(row, g)
        distinct = np.array(sorted(first.values()))
        at = np.array([first[row] for row in rows])
        where = np.searchsorted(distinct, at)
        probs = np.asarray(chances)[distinct]
        for s, cs in enumerate(at_o):
            # The other side's MWC, as ``settled`` sums for the side on roll.
            values = 1.0 - _leaves(state, doubler, probs, eff[distinct], cs)
            leaf[:, s] = values[where]
    index = {cs: s for s, cs in enumerate(at_o)}
    above = settled(state, opp, layer, leaf, at_o, range(len(plays)))
    out = np.zeros((len(plays), len(roots)))
    for i in range(len(plays)):
        for s, cs in enumerate(roots):
            out[i, s] = 1.0 - decided_at(state, opp, cs, above[i], index, 0.0)
    return out


def _leaves(state: GameState, roller: Side, probs: Probs, x: Probs, cs: CubeState) -> Probs:
    """``_leaf`` for many positions at once (rows of ``probs``, efficiencies ``x``), with
    ``cube_leaves``: the same values, the leaves valued together."""
    if not (state.config.jacoby_in_force and cs.holder is None and live(state)):
        leaves = leaves_of(state, roller, probs, x, cs)
        return leaf_mwcs(state, roller, leaves, cs, 0.0)
    a, b = aways(state, roller)
    scale = state.cube_value // valued_cube(state)
    leaves = cube_leaves.Leaves.of(state.variant, probs, a, b, state.crawford_done, x, scale=scale)
    no_double = cube_leaves.cubeful_jacoby(leaves, cs.value)
    if not may_double(state, roller, cs):
        return no_double
    futures = cube_leaves.analyse(leaves, cs.value, centred=True)
    found: Probs = np.maximum(no_double, np.minimum(futures.double_take, futures.double_pass))
    return found


def _leaf(state: GameState, roller: Side, p: Probs, x: float, cs: CubeState) -> float:
    """``roller``'s MWC on roll with the chances ``p`` and cube efficiency ``x`` at ``cs``:
    Janowski's cube life, doubling first where right (``cube_tree.leaf_mwc``, with no
    tie-break: the value is compared with a cash). Under the Jacoby rule with the cube
    centred, gammons do not count while it stays there but do once it is turned, so the
    cube's life sees them through the cash points (``cube.cubeful_jacoby``), as the
    analysis values that cube at the root."""
    if not (state.config.jacoby_in_force and cs.holder is None and live(state)):
        return leaf_mwc(state, roller, view_of(state, roller, p, x, cs), cs, 0.0)
    a, b = aways(state, roller)
    scale = state.cube_value // valued_cube(state)
    view = cube.View.of(state.variant, p, a, b, state.crawford_done, x, scale=scale)
    no_double = cube.cubeful_jacoby(view, cs.value)
    if not may_double(state, roller, cs):
        return no_double
    futures = cube.analyse(view, cs.value, centred=True)
    return max(no_double, min(futures.double_take, futures.double_pass))
