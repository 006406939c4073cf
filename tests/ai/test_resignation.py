"""The computer's answer to an offer to resign, through the public API."""

from __future__ import annotations

import pytest

from engine import Variant
from engine.ai import Level, accept_resignation
from engine.types import Side

from .helpers import position

C = Variant.CLASSIC
#: White has closed Black out, three on the bar, nothing off: a gammon is likely.
CLOSED_OUT = ({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 8: 3}, {25: 3, 13: 4, 12: 4, 11: 4})
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
