"""Cube decisions of the levels on textbook positions, through the public API."""

from __future__ import annotations

import pytest

from engine import Variant
from engine.ai import Level, accept_double, cube_decision
from engine.types import Side

from .helpers import position

C = Variant.CLASSIC
LONG_MATCH = 25  # 0-0 in a 25-point match: close to money play

#: A pure race, White on roll 79 pips against 87: about a 10% lead, the classic
#: "double, take" (Keith count, Trice's 8-9-12 rule).
RACE_LEAD = ({8: 2, 7: 2, 6: 3, 5: 3, 4: 2, 3: 2, 2: 1}, {9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 3, 2: 1})
#: White has closed Black out with three on the bar and no checker off: a gammon is
#: likely, so White plays on for it rather than cashing one point.
CLOSED_OUT = ({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 8: 3}, {25: 3, 13: 4, 12: 4, 11: 4})
#: White bears off the last two checkers next roll whatever it is: Black must pass.
HOPELESS = ({1: 2}, {6: 5, 5: 5})


@pytest.mark.parametrize("level", list(Level))
def test_clear_race_lead_is_doubled_and_taken(level: Level) -> None:
    state = position(C, *RACE_LEAD, length=LONG_MATCH)
    assert cube_decision(state, level)
    assert accept_double(state.double(), level)


@pytest.mark.parametrize("level", list(Level))
def test_massive_lead_with_gammons_plays_on(level: Level) -> None:
    state = position(C, *CLOSED_OUT, length=LONG_MATCH)
    assert not cube_decision(state, level)


@pytest.mark.parametrize("level", list(Level))
def test_hopeless_position_drops(level: Level) -> None:
    state = position(C, *HOPELESS, length=LONG_MATCH)
    assert cube_decision(state, level)  # cashes: no gammon to play for
    assert not accept_double(state.double(), level)


def test_even_opening_position_is_not_doubled() -> None:
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    state = position(C, start, start, length=LONG_MATCH)
    assert not cube_decision(state, Level.DIFFICILE)
    assert accept_double(state.double(), Level.DIFFICILE)


def test_no_cube_in_crawford_nor_in_long() -> None:
    state = position(C, *RACE_LEAD, length=5)
    crawford = type(state)(**{**_fields(state), "crawford": True, "score": (4, 0)})
    assert not cube_decision(crawford, Level.DIFFICILE)
    start = {24: 15}
    assert not cube_decision(position(Variant.LONG, start, start), Level.DIFFICILE)


def test_score_matters_post_crawford() -> None:
    # The trailer (needs 4) doubles an even-ish position at once after Crawford;
    # the same position at 0-0 in a long match is no double.
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    state = position(C, start, start, length=5, turn=Side.WHITE)
    post = type(state)(**{**_fields(state), "score": (1, 4), "crawford_done": True})
    assert cube_decision(post, Level.MEDIO)
    assert not cube_decision(position(C, start, start, length=LONG_MATCH), Level.MEDIO)


def _fields(state: object) -> dict:
    from dataclasses import fields

    return {f.name: getattr(state, f.name) for f in fields(state)}
