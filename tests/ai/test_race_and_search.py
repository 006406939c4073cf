"""Races, the exact bear-off values in the search, Facile's bear-offs and the 2-ply layer."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Variant
from engine.ai import Level, bearoff, choose_play, hint
from engine.ai.levels import FACILE_RACE_WINDOW, ranked
from engine.ai.outcomes import equity
from engine.ai.race import is_race
from engine.ai.search import ReplyRules, evaluate_positions, one_ply, two_ply, zero_ply
from engine.board import start
from engine.game import GameState

from .helpers import checkers, opening, position


def test_races(variant: Variant) -> None:
    begin = start(variant)
    assert not is_race(variant, begin, begin)
    home = checkers({1: 5, 3: 5, 6: 5})
    assert is_race(variant, home, home)
    # a checker still on the mover's 12 against a side all home: they never meet
    back = checkers({12: 1, 6: 14})
    assert is_race(variant, back, checkers({6: 15}))


def test_contact_by_variant() -> None:
    # classic: my 22 is behind their 5 (my 20)
    assert not is_race(Variant.CLASSIC, checkers({22: 1, 6: 14}), checkers({5: 15}))
    assert is_race(Variant.CLASSIC, checkers({18: 1, 6: 14}), checkers({6: 15}))
    # long: my point 13 is their 1: once past their start, I meet their checkers
    assert not is_race(Variant.LONG, checkers({13: 1, 6: 14}), checkers({6: 15}))
    assert is_race(Variant.LONG, checkers({12: 1, 6: 14}), checkers({12: 1, 6: 14}))
    # classic bar: contact whatever else
    assert not is_race(Variant.CLASSIC, checkers({25: 1, 1: 14}), checkers({1: 15}))


def _bear_off_states(variant: Variant, n: int) -> list[GameState]:
    """Random both-home positions with a roll, a choice of plays each."""
    rng = random.Random(3)
    states: list[GameState] = []
    while len(states) < n:
        sides = []
        for _ in range(2):
            spec: dict[int, int] = {}
            for _ in range(rng.randint(3, 15)):
                p = rng.randint(1, 6)
                spec[p] = spec.get(p, 0) + 1
            sides.append(spec)
        state = position(variant, sides[0], sides[1]).roll(rng.randint(1, 6), rng.randint(1, 6))
        if len(state.legal_plays()) > 1:
            states.append(state)
    return states


def test_both_home_is_valued_exactly(variant: Variant) -> None:
    on = np.array([checkers({1: 3, 4: 2, 6: 1}), checkers({2: 5})])
    off = np.array([checkers({5: 4}), checkers({6: 10})])
    exact = bearoff.race_probs(variant, on, off)
    assert np.array_equal(evaluate_positions(variant, on, off), exact)


def test_levels_bear_off_by_the_database(variant: Variant) -> None:
    for state in _bear_off_states(variant, 25):
        scored = ranked(state, deep=False)
        best = scored[0][1]
        exact = dict(
            zip(
                [p.key for p in state.legal_plays()],
                equity(variant, zero_ply(variant, state.legal_plays())),
                strict=True,
            )
        )
        assert best == pytest.approx(max(exact.values()))
        medio = choose_play(state, Level.MEDIO, random.Random(0))
        assert medio is not None and exact[medio.key] == pytest.approx(best)
        for seed in range(4):
            facile = choose_play(state, Level.FACILE, random.Random(seed))
            assert facile is not None
            assert exact[facile.key] >= best - FACILE_RACE_WINDOW


def test_deeper_search_agrees_with_the_exact_bear_off(variant: Variant) -> None:
    """In a bear-off the database is exact, so looking ahead one or two rolls must give
    (almost) the same values: this checks the look-ahead's weights and points of view."""
    for state in _bear_off_states(variant, 6):
        plays = state.legal_plays()[:3]
        mover = state.turn
        reply = ReplyRules(variant)
        e0 = equity(variant, zero_ply(variant, plays))
        e1 = equity(variant, one_ply(variant, plays, reply))
        e2 = two_ply(variant, plays, reply, ReplyRules(variant))
        assert e2 is not None
        assert np.allclose(e1, e0, atol=0.02), (mover, e0, e1)
        assert np.allclose(equity(variant, e2), e0, atol=0.02), (mover, e0, e2)


def test_two_ply_respects_its_limit(variant: Variant) -> None:
    state = opening(variant, 5)
    plays = state.legal_plays()[:2]
    assert two_ply(variant, plays, ReplyRules(variant), ReplyRules(variant), limit=10) is None
    probs = two_ply(variant, plays, ReplyRules(variant), ReplyRules(variant))
    assert probs is not None and probs.shape == (len(plays), variant.rules.n_outcomes)
    assert np.all((probs >= -1e-9) & (probs <= 1 + 1e-9))


def test_difficile_and_hint_agree_in_a_race(variant: Variant) -> None:
    state = position(variant, {1: 2, 2: 2, 3: 3, 5: 2, 6: 1}, {2: 4, 4: 4, 6: 4}).roll(6, 4)
    best = hint(state, n=1)[0][0]
    chosen = choose_play(state, Level.DIFFICILE, random.Random(0))
    assert chosen is not None and chosen.key == best.key
