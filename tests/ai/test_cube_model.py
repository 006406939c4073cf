"""The cube model on synthetic chances: take points, doubling window, score effects."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ai.cube import met, should_double, should_take
from engine.types import Variant

C = Variant.CLASSIC
LONG_MATCH = 25  # 25-away each: close to money play


def gammonless(win: float) -> np.ndarray:
    return np.array([win, 0.0, 0.0, 0.0, 0.0])


def test_match_equity_table_is_symmetric_and_monotone() -> None:
    assert met(5, 5, False) == pytest.approx(0.5)
    assert met(3, 5, False) + met(5, 3, False) == pytest.approx(1.0)
    assert met(2, 5, False) > met(3, 5, False) > met(4, 5, False)
    assert 0.65 < met(1, 2, False) < 0.72  # the Crawford game leader
    assert met(1, 2, True) == pytest.approx(0.5)  # post-Crawford, the trailer doubles


@pytest.mark.parametrize(("win", "take"), [(0.30, True), (0.23, True), (0.18, False)])
def test_take_point_near_money(win: float, take: bool) -> None:
    assert should_take(C, gammonless(win), 1, LONG_MATCH, LONG_MATCH, False) is take


@pytest.mark.parametrize(
    ("win", "double"), [(0.55, False), (0.62, False), (0.72, True), (0.85, True)]
)
def test_doubling_window_near_money(win: float, double: bool) -> None:
    assert should_double(C, gammonless(win), 1, LONG_MATCH, LONG_MATCH, False) is double


def test_too_good_with_gammons_plays_on() -> None:
    p = np.array([0.95, 0.65, 0.05, 0.0, 0.0])
    assert not should_double(C, p, 1, LONG_MATCH, LONG_MATCH, False)
    assert should_double(C, np.array([0.95, 0.02, 0.0, 0.0, 0.0]), 1, 25, 25, False)


def test_post_crawford_trailer_doubles_at_once_and_leader_never() -> None:
    even = gammonless(0.5)
    assert should_double(C, even, 1, 4, 1, True)  # trailer, 4-away vs 1-away
    assert not should_double(C, gammonless(0.7), 1, 1, 4, True)  # leader gains nothing


def test_a_cube_that_already_wins_the_match_is_not_turned() -> None:
    # I need 2 and own the cube at 2: any win takes the match, a redouble only risks more.
    assert not should_double(C, gammonless(0.75), 2, 2, 5, False)
    assert should_double(C, gammonless(0.75), 2, 8, 8, False)
