"""Janowski's cube life for many leaves at once (``cube_leaves``) equals, bit for bit, the
one-leaf valuation (``cube.View``) it replaces in the cube trees.

Why: the trees decide plays and cubes by comparing these values, some of them ties broken
by a thousandth of a margin; the vectorised valuation must not move any of them. Random
chances (with the edge cases of no wins, sure wins and no gammons) are valued at every
cube state a tree reaches, in the game contexts of ``benchmarks.hints``.
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.hints import CONTEXTS, Context, in_context
from engine import Side
from engine.ai.cube_root import _leaf, _leaves
from engine.ai.cube_tree import CubeState, leaf_mwc, leaf_mwcs, leaves_of, view_of

from .test_hint_cube_tree import LOOSE_HIT, from_gnubg


def _chances(n: int, seed: int) -> np.ndarray:
    """``n`` rows of cumulative results (win, gammon, backgammon, lose gammon, lose
    backgammon), the first ones at the edges."""
    rng = np.random.default_rng(seed)
    win = rng.random(n)
    gammon = win * rng.random(n) * 0.6
    lose_gammon = (1.0 - win) * rng.random(n) * 0.6
    rows = np.stack(
        [win, gammon, gammon * rng.random(n) * 0.3, lose_gammon, lose_gammon * 0.2], axis=1
    )
    rows[:4] = [[0, 0, 0, 0.3, 0.01], [1, 0.4, 0.1, 0, 0], [0.5, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    return rows


@pytest.mark.parametrize("ctx", CONTEXTS, ids=lambda c: c.name)
def test_leaves_valued_together_equal_leaves_valued_one_by_one(ctx: Context) -> None:
    state = in_context(from_gnubg(*LOOSE_HIT), ctx)
    chances = _chances(40, 7)
    x = np.random.default_rng(8).uniform(0.6, 0.72, len(chances))
    for side in (Side.WHITE, Side.BLACK):
        for cs in (CubeState(1, None), CubeState(2, side), CubeState(4, side.other)):
            together = leaf_mwcs(state, side, leaves_of(state, side, chances, x, cs), cs)
            at_root = _leaves(state, side, chances, x, cs)
            for i, p in enumerate(chances):
                view = view_of(state, side, p, float(x[i]), cs)
                assert together[i] == leaf_mwc(state, side, view, cs)
                assert at_root[i] == _leaf(state, side, p, float(x[i]), cs)
