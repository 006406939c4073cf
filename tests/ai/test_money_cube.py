"""The computer's cube in a money game: valued as a long match at an even score, at cube 1
whatever the cube shows (money play scales with the stake), up to the cube limit 64."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import GameState, Side, Variant
from engine.ai import Level, accept_double, cube_decision

from .helpers import position
from .test_cube_decisions import HOPELESS, RACE_LEAD

MONEY = 0


@pytest.mark.parametrize("level", list(Level))
def test_a_clear_race_lead_is_doubled_and_taken_for_money(level: Level) -> None:
    state = position(Variant.CLASSIC, *RACE_LEAD, length=MONEY)
    assert cube_decision(state, level)
    assert accept_double(state.double(), level)


@pytest.mark.parametrize("level", list(Level))
def test_a_hopeless_money_double_is_dropped(level: Level) -> None:
    state = position(Variant.CLASSIC, *HOPELESS, length=MONEY)
    assert not accept_double(state.double(), level)


def _owned_by_white(state: GameState, value: int) -> GameState:
    return replace(state, cube_value=value, cube_owner=Side.WHITE)


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("value", [2, 8, 16, 32])
def test_a_money_redouble_is_valued_alike_at_any_cube_up_to_the_limit(
    level: Level, value: int
) -> None:
    """Money play scales with the stake: a clear race lead redoubles at 2 as at 32 (a
    match-like valuation ended the cube near the match's length, 25 points)."""
    state = _owned_by_white(position(Variant.CLASSIC, *RACE_LEAD, length=MONEY), value)
    assert cube_decision(state, level)


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("value", [2, 8, 16])
def test_a_money_redouble_below_the_limit_is_taken(level: Level, value: int) -> None:
    state = _owned_by_white(position(Variant.CLASSIC, *RACE_LEAD, length=MONEY), value)
    assert accept_double(state.double(), level)


@pytest.mark.parametrize("level", list(Level))
def test_a_money_cube_at_the_limit_is_not_turned(level: Level) -> None:
    state = _owned_by_white(position(Variant.CLASSIC, *RACE_LEAD, length=MONEY), 64)
    assert not cube_decision(state, level)
