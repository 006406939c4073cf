"""A hint's plays valued with the cube decided at every node of its two-ply look-ahead.

Why: valuing the cube once, from chances averaged over both sides' next rolls, credits a
volatile play with the cube leverage of its average. A loose blitzing hit (the mover cashes
after most replies, loses after the return shots) reads like a strong, cube-efficient
position, while in the game the cube is turned, or not, after each roll: where the mover
would cash, a better position is worth no more than the cash, and a return hit loses at
the cube it was lost at. GNU Backgammon's n-ply cubeful evaluation does exactly that: each
node where a side is on roll chooses between no double and double/take or double/pass from
its children's cubeful values (all cube states carried down together), and only the last
layer is valued with Janowski's cube life (``engine.ai.cube``, the same model and cube
efficiency here). The gap measured on the hint's largest loss (a 4-away/2-away
position where a loose hit was preferred to a quiet play) was there, not in the chances
nor in the efficiency ``x``.

How (``cube_at_every_node``), from the hint's two-ply tree (``search.grow``): after a play
the opponent is on roll (their cube decision), after each of their replies the mover is on
roll (its decision), and after each of the mover's plays the opponent is on roll again:
a leaf, valued as the hint values any position (``leaf_mwc``: Janowski's cube life, the
roller doubling first where right). Finished games count at the cube they ended at. The
cube states a node reaches are at most four (the cube as it is, doubled by either side,
redoubled); each is valued once per leaf.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from engine.ai import cube, cube_leaves
from engine.ai.arrays import Probs, counts_to_roll
from engine.ai.levels import valued_cube
from engine.ai.outcomes import flip
from engine.ai.search import Layer, TwoPlyTree
from engine.game import MAX_CUBE, GameState
from engine.types import Side

#: Plays after which a side would double the other out are all worth the cube's value;
#: this share of how much more the doubler would win by a take separates them (the closer
#: to a take, the better), well below the hint's shown precision.
PASS_TIE_BREAK = 1e-3


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube at a node: its valued value (``levels.valued_cube``, 1 for money before any
    double) and who holds it (None: centred)."""

    value: int
    holder: Side | None


def aways(state: GameState, side: Side) -> tuple[int, int]:
    """(points ``side`` needs, points its opponent needs); money is a long even match."""
    if state.config.money:
        return cube.MONEY_AWAY, cube.MONEY_AWAY
    me = state.player_of(side)
    length = state.config.length
    return length - state.score[me], length - state.score[1 - me]


def real_cube(state: GameState, cs: CubeState) -> int:
    """The cube the board would show at ``cs``."""
    return state.cube_value * cs.value // valued_cube(state)


def live(state: GameState) -> bool:
    """Can the cube be turned at all in this game?"""
    return state.config.cube_in_play and not state.crawford


def may_double(state: GameState, roller: Side, cs: CubeState) -> bool:
    """May ``roller`` double at ``cs``, and could a double ever gain (a win at the cube
    does not already take the match)?"""
    if not live(state) or cs.holder is roller.other:
        return False
    return 2 * real_cube(state, cs) <= MAX_CUBE and aways(state, roller)[0] > cs.value


def leaf_mwc(
    state: GameState,
    roller: Side,
    view: cube.View,
    cs: CubeState,
    tie_break: float = PASS_TIE_BREAK,
) -> float:
    """The MWC of ``roller``, about to roll with the chances of ``view`` at ``cs``:
    Janowski's cube life, doubling first when that is right; the dead cube when no cube
    can be turned. ``tie_break``: the share of a pass's margin added to rank plays (0
    where the value itself is compared with a cash, as in a cube decision)."""
    if not live(state):
        return view.dead(cs.value)
    owner = cube.owner_seen_by(cs.holder, roller)
    if may_double(state, roller, cs):
        analysis = cube.analyse(view, cs.value, centred=owner is cube.Owner.CENTRE)
        if analysis.double:
            taken = min(analysis.double_take, analysis.double_pass)
            # A double the other side should pass is worth the same after every play that
            # allows it: the plays would tie at the cube's value and rank in the order of
            # their generation. How far the roller would be past the pass breaks the tie.
            return taken + tie_break * (analysis.double_take - taken)
        return analysis.no_double
    return cube.cubeful(view, cs.value, owner)


def leaf_mwcs(
    state: GameState,
    roller: Side,
    leaves: cube_leaves.Leaves,
    cs: CubeState,
    tie_break: float = PASS_TIE_BREAK,
) -> Probs:
    """``leaf_mwc`` for many positions at once (``cube_leaves``: the same values, a tree's
    leaves valued together rather than one ``View`` at a time)."""
    if not live(state):
        return leaves.dead(cs.value)
    owner = cube.owner_seen_by(cs.holder, roller)
    if may_double(state, roller, cs):
        futures = cube_leaves.analyse(leaves, cs.value, centred=owner is cube.Owner.CENTRE)
        taken = np.minimum(futures.double_take, futures.double_pass)
        doubled_value = taken + tie_break * (futures.double_take - taken)
        found: Probs = np.where(futures.double, doubled_value, futures.no_double)
        return found
    return cube_leaves.cubeful(leaves, cs.value, owner)


def decided(
    state: GameState,
    roller: Side,
    cs: CubeState,
    no_double: float,
    take: float,
    tie_break: float = PASS_TIE_BREAK,
) -> float:
    """``roller``'s MWC at a node where it is on roll, from its children's values with the
    cube as it is (``no_double``) and doubled (``take``): the better of playing on and
    doubling, the taker choosing between take and pass."""
    if not may_double(state, roller, cs):
        return no_double
    a, b = aways(state, roller)
    cash = cube.met(a - cs.value, b, state.crawford_done)
    taken = min(take, cash)
    if taken > no_double - 1e-9:
        return taken + tie_break * (take - taken)
    return no_double


def decided_at(
    state: GameState,
    roller: Side,
    cs: CubeState,
    values: Probs,
    index: dict[CubeState, int],
    tie_break: float = PASS_TIE_BREAK,
) -> float:
    """``decided`` at ``cs`` from ``values``, ``roller``'s MWC at each cube state below
    (``index``: where each state is): as it is, and doubled where ``roller`` may double."""
    no_double = float(values[index[cs]])
    if not may_double(state, roller, cs):
        return no_double
    take = float(values[index[doubled(cs, roller)]])
    return decided(state, roller, cs, no_double, take, tie_break)


def doubled(cs: CubeState, doubler: Side) -> CubeState:
    """The cube after ``doubler`` turns it and the other side takes."""
    return CubeState(2 * cs.value, doubler.other)


def next_states(state: GameState, roller: Side, states: list[CubeState]) -> list[CubeState]:
    """The cube states after ``roller``'s decision at each of ``states``: each as it is and,
    where ``roller`` may double, doubled (distinct, in a fixed order)."""
    found: list[CubeState] = []
    for cs in states:
        for nxt in (cs, doubled(cs, roller)) if may_double(state, roller, cs) else (cs,):
            if nxt not in found:
                found.append(nxt)
    return found


def cube_at_every_node(state: GameState, tree: TwoPlyTree, depth: int = 2) -> Probs:
    """The MWC for the mover after each play of the two-ply tree ``tree`` (in the order of
    ``tree.keep``), with the cube decided where each side is on roll.

    ``depth`` 2 values the leaves (the opponent on roll after my reply) with the cube's
    life and decides both sides' cubes above them; 1 values the cube's life where I am on
    roll, from my one-ply chances there (the study's shallower variant).
    """
    opp = state.turn.other
    root = CubeState(valued_cube(state), state.cube_owner)
    at_m = next_states(state, opp, [root])
    mid = _mover_decides(state, tree, at_m) if depth >= 2 else _mover_on_roll(state, tree, at_m)
    # The opponent on roll after each play.
    upper = tree.upper
    m_index = {cs: s for s, cs in enumerate(at_m)}
    upper_values = np.zeros((len(upper.groups), len(at_m)))
    for k, g in enumerate(tree.groups):
        upper_values[g] = 1.0 - mid[k]  # the opponent's MWC
    above = settled(state, opp, upper, upper_values, at_m, tree.keep)
    return np.array([1.0 - decided_at(state, opp, root, above[i], m_index) for i in tree.keep])


def _mover_decides(state: GameState, tree: TwoPlyTree, at_m: list[CubeState]) -> Probs:
    """Per position of ``tree.lower`` (the mover on roll after a reply) and cube state of
    ``at_m``, the mover's MWC: its cube decision from the leaves below."""
    mover = state.turn
    at_l = next_states(state, mover, at_m)
    lower = tree.lower
    # The leaves: the opponent on roll after my reply, valued at every cube state (each
    # distinct position once: a fifth of them repeat).
    distinct: dict[bytes, int] = {}
    first: list[int] = []
    for j, row in enumerate(tree.lower_chosen):
        if distinct.setdefault(lower.rows[row], len(distinct)) == len(first):
            first.append(j)
    at = [distinct[lower.rows[row]] for row in tree.lower_chosen]
    rows = [lower.rows[tree.lower_chosen[j]] for j in first]
    leaf = _leaf_values(state, rows, tree.leaves[first], at_l)[at]
    l_index = {cs: s for s, cs in enumerate(at_l)}
    below = settled(state, mover, lower, leaf, at_l, range(len(lower.out)))
    return np.array(
        [
            [decided_at(state, mover, cs, below[k], l_index) for cs in at_m]
            for k in range(len(tree.groups))
        ]
    ).reshape(len(tree.groups), len(at_m))


def _mover_on_roll(state: GameState, tree: TwoPlyTree, at_m: list[CubeState]) -> Probs:
    """As ``_mover_decides``, from the mover's one-ply chances on roll there, valued with
    the cube's life (``leaf_mwc``)."""
    mover = state.turn
    chances = flip(state.variant, tree.lower.settle(tree.leaves))
    starts = [tree.upper.rows[tree.chosen[g]] for g in tree.groups]
    if not starts:
        return np.zeros((0, len(at_m)))
    me, them = counts_to_roll(starts)  # the opponent replied: I am on roll
    x = cube.cube_efficiencies(me, them) if state.config.cube_in_play else None
    eff = np.zeros(len(starts)) if x is None else np.asarray(x, dtype=float)
    mid = np.zeros((len(tree.groups), len(at_m)))
    for s, cs in enumerate(at_m):
        leaves = leaves_of(state, mover, np.asarray(chances), eff, cs)
        mid[:, s] = leaf_mwcs(state, mover, leaves, cs)
    return mid


def _counted(state: GameState, p: Probs, cs: CubeState) -> Probs:
    """The results ``p`` with the gammons and backgammons zeroed where they do not count
    at ``cs`` (the Jacoby rule before any double)."""
    if state.rules.big_results_count(state.config, real_cube(state, cs) > 1):
        return p
    return np.concatenate([p[:1], np.zeros(len(p) - 1)])


def view_of(state: GameState, side: Side, p: Probs, x: float, cs: CubeState) -> cube.View:
    """``side``'s view with chances ``p`` and efficiency ``x`` at ``cs``."""
    p = _counted(state, p, cs)
    a, b = aways(state, side)
    scale = state.cube_value // valued_cube(state)
    return cube.View.of(state.variant, p, a, b, state.crawford_done, x, scale=scale)


def leaves_of(
    state: GameState, side: Side, probs: Probs, x: Probs, cs: CubeState
) -> cube_leaves.Leaves:
    """``view_of`` for many positions (rows of ``probs``, efficiencies ``x``) at once."""
    if not state.rules.big_results_count(state.config, real_cube(state, cs) > 1):
        probs = probs.copy()
        probs[:, 1:] = 0.0  # ``_counted``: the Jacoby rule before any double
    a, b = aways(state, side)
    scale = state.cube_value // valued_cube(state)
    return cube_leaves.Leaves.of(state.variant, probs, a, b, state.crawford_done, x, scale=scale)


def _leaf_values(
    state: GameState, rows: list[bytes], chances: Probs, states: list[CubeState]
) -> Probs:
    """The mover's MWC at each leaf (``rows``: the mover's checkers then the opponent's,
    who is on roll with ``chances``) and each cube state: the opponent's cube life."""
    opp = state.turn.other
    if not rows:
        return np.zeros((0, len(states)))
    them = counts_to_roll(rows)  # (the opponent on roll, the mover) as point counts
    x = cube.cube_efficiencies(them[0], them[1]) if state.config.cube_in_play else None
    eff = np.zeros(len(rows)) if x is None else np.asarray(x, dtype=float)
    values = np.zeros((len(rows), len(states)))
    for s, cs in enumerate(states):
        leaves = leaves_of(state, opp, np.asarray(chances), eff, cs)
        values[:, s] = 1.0 - leaf_mwcs(state, opp, leaves, cs)
    return values


def settled(
    state: GameState,
    roller: Side,
    layer: Layer,
    values: Probs,
    states: list[CubeState],
    positions: Iterable[int],
) -> Probs:
    """For each of ``positions`` of ``layer`` (the rest stay 0), the MWC of ``roller``, on
    roll there, at each cube state: its groups' values (``values``: per group and state, in
    ``roller``'s MWC; groups of other positions are ignored) weighted by their rolls, plus
    the games its rolls end, valued dead at each cube."""
    wanted = set(positions)
    total = np.zeros((len(layer.out), len(states)))
    weight = np.zeros(len(layer.out))
    for g, (i, w, _, _) in enumerate(layer.groups):
        if i in wanted:
            total[i] += w * values[g]
            weight[i] += w
    for i in wanted:
        ended = 1.0 - weight[i]
        if ended <= 1e-9:
            continue
        p = flip(state.variant, layer.out[i] / ended)  # the roller's results
        for s, cs in enumerate(states):
            total[i, s] += ended * _dead(state, roller, p, cs)
    return total


def _dead(state: GameState, side: Side, p: Probs, cs: CubeState) -> float:
    """``side``'s MWC from the results ``p`` of games over, at ``cs``."""
    p = _counted(state, p, cs)
    a, b = aways(state, side)
    return cube.View.of(state.variant, p, a, b, state.crawford_done, 0.0).dead(cs.value)
