"""The cube trees' values pinned: the leaves valued together (``cube_leaves``) give the
hints exactly what the one-by-one valuation (``cube.View`` per leaf) gave.

Why: valuing the leaves with numpy is a change of speed only; any drift would change
hints and the analysis's decisions. The literals below were recorded from the one-by-one
valuation, on one checker position (gnubg IDs, the loose-hit position of
``test_hint_cube_tree``) and two positions before a roll, each put in several game
contexts of ``benchmarks.hints`` (money with the Jacoby rule, cube owned by either side,
match scores, the Crawford game, post-Crawford). ``test_cube_leaves`` checks the same
equality leaf by leaf on random chances. Here the network's chances come in too: they are
float32 sums whose last bits depend on how many threads the BLAS library splits a product
over, so the pinned values hold to ``TOLERANCE``, far below any change of the cube model.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.hints import CONTEXTS, in_context
from engine import GameState, MatchConfig, Phase, Side, Variant, format_play
from engine.ai import checker_hint, cube_hint
from engine.gnubg import decode_position

from .test_hint_cube_tree import LOOSE_HIT, from_gnubg

#: The network's float32 noise across BLAS thread counts is about 1e-8 in MWC.
TOLERANCE = 1e-6

CONTEXT = {c.name: c for c in CONTEXTS}

CHECKER: dict[str, list[tuple[str, float]]] = {
    "money, cube centred": [
        ("8/5 8/4", 1.0009786558237057),
        ("5/1 4/1", 1.0006732253596895),
        ("5/2* 5/1", 0.711212255753665),
        ("8/4 5/2*", 0.6331498076322986),
    ],
    "money, cube 2 theirs": [
        ("8/5 8/4", 1.945062002683861),
        ("5/1 4/1", 1.6545479705669786),
        ("5/2* 5/1", 1.4785998165993641),
        ("8/4 5/2*", 1.4724137738404306),
    ],
    "4a/2a": [
        ("8/5 8/4", 0.40440483740968236),
        ("5/1 4/1", 0.40117511906841274),
        ("5/2* 5/1", 0.3896780423768589),
        ("8/4 5/2*", 0.3887290730777535),
    ],
    "5a/3a cube 2 mine": [
        ("5/2* 5/1", 0.5162931938724226),
        ("8/4 5/2*", 0.5160954023650697),
        ("8/5 8/4", 0.5119228731587757),
        ("5/1 4/1", 0.5090422536091498),
    ],
    "Crawford 3a/1a": [
        ("8/5 8/4", 0.47097394218796285),
        ("5/1 4/1", 0.43804367630413166),
        ("5/2* 5/1", 0.4021293354100114),
        ("6/2* 5/2", 0.39635749226469663),
    ],
    "post-Crawford 3a/1a": [
        ("8/5 8/4", 0.4876896838007819),
        ("5/1 4/1", 0.4853620749750489),
        ("5/2* 5/1", 0.43159460939395844),
        ("8/4 5/2*", 0.42324089926430386),
    ],
    "2a/4a cube 2 theirs": [
        ("8/5 8/4", 0.9621666173140206),
        ("5/1 4/1", 0.8937481641769409),
        ("6/2* 5/2", 0.8485953956842422),
        ("8/4 5/2*", 0.8380633592605591),
    ],
}

CUBE: dict[tuple[str, str], tuple[float, float, float]] = {
    ("s1zgICiwZ/ABEQ", "money, cube centred"): (0.6769236112118022, 0.8128389708586445, 1.0),
    ("s1zgICiwZ/ABEQ", "money, cube 2 mine"): (1.531273517158634, 1.625677941717289, 2.0),
    ("s1zgICiwZ/ABEQ", "3a/3a"): (0.581171686026094, 0.5997473548202142, 0.59947),
    ("s1zgICiwZ/ABEQ", "post-Crawford 3a/1a"): (0.4410945751570924, 0.4695590825371995, 0.48803),
    ("zazBABMzG3ADQQ", "4a/2a"): (0.36443300524680156, 0.4010214766309263, 0.40053),
    ("zazBABMzG3ADQQ", "7a/7a cube 4 mine"): (0.6004949877994317, 0.5842147335456108, 0.76209),
    ("zazBABMzG3ADQQ", "2a/2a"): (0.5780762582677524, 0.5842147335456108, 0.67736),
}


def _before_roll(position_id: str) -> GameState:
    """White on roll before its roll, with the board of ``position_id`` (White's first)."""
    theirs, mine = decode_position(position_id)
    config = MatchConfig(Variant.CLASSIC, length=0, cube=True)
    state = GameState(config, (mine, theirs), Phase.ROLL, Side.WHITE)
    return replace(state, has_moved=(True, True))


@pytest.mark.parametrize("context", sorted(CHECKER))
def test_checker_hint_values_are_unchanged(context: str) -> None:
    state = in_context(from_gnubg(*LOOSE_HIT), CONTEXT[context])
    hint = checker_hint(state, 4)
    found = [(format_play(p), v) for p, v in hint.plays]
    assert [name for name, _ in found] == [name for name, _ in CHECKER[context]]
    for (_, value), (_, pinned) in zip(found, CHECKER[context], strict=True):
        assert value == pytest.approx(pinned, abs=TOLERANCE)


@pytest.mark.parametrize("key", sorted(CUBE))
def test_cube_hint_futures_are_unchanged(key: tuple[str, str]) -> None:
    position_id, context = key
    hint = cube_hint(in_context(_before_roll(position_id), CONTEXT[context]))
    found = (hint.no_double, hint.double_take, hint.double_pass)
    assert found == pytest.approx(CUBE[key], abs=TOLERANCE)
