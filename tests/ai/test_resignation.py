"""The computer's answer to an offer to resign, through the public API."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Variant
from engine.ai import Level, accept_resignation
from engine.types import Side

from .helpers import at_score, position

C = Variant.CLASSIC
#: White has closed Black out, three on the bar, nothing off: a gammon is likely.
CLOSED_OUT = ({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 8: 3}, {25: 3, 13: 4, 12: 4, 11: 4})
#: White bears off the last two checkers next roll whatever it is; Black has none off.
HOPELESS = ({1: 2}, {6: 5, 5: 5})
#: The opening position: nobody expects to win more than a single game.
START = ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})


@pytest.mark.parametrize("level", list(Level))
def test_a_single_game_is_refused_when_a_gammon_is_likely(level: Level) -> None:
    state = position(C, *CLOSED_OUT, length=25)
    assert not accept_resignation(state, Side.BLACK, 1, level)
    assert accept_resignation(state, Side.BLACK, 3, level)


@pytest.mark.parametrize("level", list(Level))
def test_any_offer_is_accepted_at_the_start(level: Level) -> None:
    state = position(C, *START, length=25)
    assert accept_resignation(state, Side.BLACK, 1, level)
    assert accept_resignation(state, Side.WHITE, 1, level)  # the resigner on roll


def test_long_mars_offer_in_a_won_race_is_accepted() -> None:
    state = position(Variant.LONG, {1: 2}, {24: 10, 20: 5}, length=3)
    assert accept_resignation(state, Side.BLACK, 2, Level.MEDIO)


@pytest.mark.parametrize("level", list(Level))
def test_a_single_game_that_wins_the_match_is_accepted_when_a_gammon_is_likely(
    level: Level,
) -> None:
    # White needs 2 with the cube on 2: a single already takes the match, so playing on for
    # the gammon can only lose it.
    state = at_score(position(C, *CLOSED_OUT, length=7), white_away=2, black_away=5, post=False)
    state = replace(state, cube_value=2, cube_owner=Side.BLACK)
    assert accept_resignation(state, Side.BLACK, 1, level)


@pytest.mark.parametrize("level", list(Level))
def test_the_cash_white_would_take_is_accepted_as_a_resignation(level: Level) -> None:
    # White would double and Black pass: a single game offered now is worth just as much.
    state = position(C, *HOPELESS, length=25)
    assert accept_resignation(state, Side.BLACK, 1, level)


def test_a_match_winning_offer_from_the_side_on_roll_is_accepted() -> None:
    # Black, on roll in the opening position, offers a gammon when White needs 2 to win.
    state = at_score(
        position(C, *START, length=9, turn=Side.BLACK), white_away=2, black_away=9, post=False
    )
    assert accept_resignation(state, Side.BLACK, 2, Level.MEDIO)
