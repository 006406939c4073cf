"""The computer's cube in a money game: valued as a long match at an even score."""

from __future__ import annotations

import pytest

from engine import Variant
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
