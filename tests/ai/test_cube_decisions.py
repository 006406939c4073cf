"""Cube decisions of the levels on textbook positions, through the public API."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Variant
from engine.ai import Level, accept_double, cube_decision
from engine.types import Side

from .helpers import at_score, position

C = Variant.CLASSIC
LONG_MATCH = 25  # 0-0 in a 25-point match: close to money play

#: A pure race, White on roll 79 pips against 87: about a 10% lead, the classic
#: "double, take" (Trice's 8-9-12 rule; GNU Backgammon 2-ply agrees, 76% to win).
RACE_LEAD = (
    {8: 2, 7: 2, 6: 3, 5: 3, 4: 2, 3: 2, 2: 1},
    {9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 2: 1, 1: 1},
)
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
    crawford = replace(state, crawford=True, score=(4, 0))
    assert not cube_decision(crawford, Level.DIFFICILE)
    start = {24: 15}
    assert not cube_decision(position(Variant.LONG, start, start), Level.DIFFICILE)


def test_score_matters_post_crawford() -> None:
    # The trailer (needs 4) doubles an even-ish position at once after Crawford;
    # the same position at 0-0 in a long match is no double.
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    state = position(C, start, start, length=5, turn=Side.WHITE)
    post = replace(state, score=(1, 4), crawford_done=True)
    assert cube_decision(post, Level.MEDIO)
    assert not cube_decision(position(C, start, start, length=LONG_MATCH), Level.MEDIO)


@pytest.mark.parametrize("level", list(Level))
def test_leader_needing_one_never_doubles_post_crawford(level: Level) -> None:
    # A win at the cube already takes the match: turning it could only lose more.
    state = at_score(position(C, *RACE_LEAD, length=5), white_away=1, black_away=4, post=True)
    assert not cube_decision(state, level)


@pytest.mark.parametrize("level", list(Level))
def test_post_crawford_leader_drops_a_hopeless_double_for_free(level: Level) -> None:
    # Black leads 1-away: dropping only gives White a point, taking loses two.
    state = at_score(position(C, *HOPELESS, length=5), white_away=4, black_away=1, post=True)
    assert cube_decision(state, level)
    assert not accept_double(state.double(), level)


@pytest.mark.parametrize("level", list(Level))
def test_a_double_is_taken_when_dropping_loses_the_match(level: Level) -> None:
    # White (1-away, post-Crawford) doubles a won position: passing ends the match at once,
    # taking at least plays it out.
    state = at_score(position(C, *HOPELESS, length=5), white_away=1, black_away=3, post=True)
    assert accept_double(state.double(), level)
