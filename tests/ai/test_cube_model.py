"""The cube model on synthetic chances: the match equity table, gammon values, take points
after Janowski, the doubling window and the score's effects."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ai.cube import (
    CONTACT_EFFICIENCY,
    CubeAction,
    View,
    analyse,
    cube_efficiency,
    gammon_value,
    met,
    should_double,
    should_take,
    take_point,
)
from engine.types import Variant

C = Variant.CLASSIC
LONG_MATCH = 25  # 25-away each: close to money play


def gammonless(win: float) -> np.ndarray:
    return np.array([win, 0.0, 0.0, 0.0, 0.0])


def test_match_equity_table_is_symmetric_and_monotone() -> None:
    # Over every score the engine allows (64 points), the published part and its extension.
    for a in range(1, 65):
        for b in range(1, 65):
            assert met(a, b, False) + met(b, a, False) == pytest.approx(1.0, abs=1e-4)
            assert met(a, b, False) >= met(a + 1, b, False)
            assert met(a, b, False) <= met(a, b + 1, False)
    for trailer in range(2, 64):
        assert met(trailer, 1, True) >= met(trailer + 1, 1, True) > 0.0


def test_published_entries_are_read_as_published() -> None:
    # Kazaross-XG2: the Crawford game leader at 1-away/2-away, 2-away/3-away, 5-away/3-away.
    assert met(1, 2, False) == pytest.approx(0.67736)
    assert met(2, 3, False) == pytest.approx(0.59947)
    assert met(5, 3, False) == pytest.approx(0.35205)
    assert met(3, 5, False) == pytest.approx(0.64795)
    assert met(25, 25, False) == pytest.approx(0.5)
    # Post-Crawford (free drop included): the trailer at 2-away is just below even.
    assert met(2, 1, True) == pytest.approx(0.48803)
    assert met(1, 2, True) == pytest.approx(0.51197)
    assert met(4, 1, True) == pytest.approx(0.31002)


def test_table_extends_smoothly_beyond_its_length() -> None:
    for b in (10, 25, 40):
        assert abs(met(26, b, False) - met(25, b, False)) < 0.04
    assert met(64, 64, False) == pytest.approx(0.5)
    assert 0.5 < met(60, 64, False) < met(50, 64, False) < 1.0


def test_gammon_values_follow_the_score() -> None:
    # A gammon adds one point to a two-point swing in money play: 1/2 at long even scores.
    assert gammon_value(25, 25, 1, False) == pytest.approx(0.5, abs=0.02)
    # At 2-away/2-away a gammon wins the match as a single would win one more game.
    assert gammon_value(2, 2, 1, False) > 0.85
    # The Crawford game leader needs one point: a gammon is worth nothing more.
    assert gammon_value(1, 3, 1, False) == 0.0
    # Needing 2 with the cube on 2: a single already wins the match.
    assert gammon_value(2, 5, 2, False) == 0.0


@pytest.mark.parametrize(
    ("x", "lose_gammons", "win_gammons"),
    [(0.0, 0.0, 0.0), (0.68, 0.0, 0.0), (1.0, 0.0, 0.0), (0.68, 0.25, 0.0), (0.68, 0.25, 0.25)],
)
def test_take_points_near_money_follow_janowski(
    x: float, lose_gammons: float, win_gammons: float
) -> None:
    # Janowski's money take point TP = (L - 1/2) / (W + L + x/2), W and L the average value
    # of a win and of a loss: 25% for a dead cube, 20% for a perfectly live one.
    w = 0.3
    p = np.array([w, w * win_gammons, 0.0, (1 - w) * lose_gammons, 0.0])
    taker = View.of(C, p, LONG_MATCH, LONG_MATCH, False, x)
    big_w, big_l = 1 + win_gammons, 1 + lose_gammons
    expected = (big_l - 0.5) / (big_w + big_l + 0.5 * x)
    assert take_point(taker, 2) == pytest.approx(expected, abs=0.005)


def test_cube_efficiency_by_kind_of_position() -> None:
    start = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    assert cube_efficiency(start, start) == CONTACT_EFFICIENCY
    short = (13, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    long_race = (0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert cube_efficiency(short, short) < cube_efficiency(long_race, short) <= 0.75


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
    view = View.of(C, p, LONG_MATCH, LONG_MATCH, False, CONTACT_EFFICIENCY)
    assert analyse(view, 1, centred=True).action is CubeAction.TOO_GOOD
    assert should_double(C, np.array([0.95, 0.02, 0.0, 0.0, 0.0]), 1, 25, 25, False)


def test_post_crawford_trailer_doubles_at_once_and_leader_never() -> None:
    even = gammonless(0.5)
    assert should_double(C, even, 1, 4, 1, True)  # trailer, 4-away vs 1-away
    assert not should_double(C, gammonless(0.7), 1, 1, 4, True)  # leader gains nothing


def test_a_cube_that_already_wins_the_match_is_not_turned() -> None:
    # I need 2 and own the cube at 2: any win takes the match, a redouble only risks more.
    assert not should_double(C, gammonless(0.75), 2, 2, 5, False)
    assert should_double(C, gammonless(0.75), 2, 8, 8, False)


@pytest.mark.parametrize(
    ("win", "action"),
    [
        (0.5, CubeAction.NO_DOUBLE),
        (0.76, CubeAction.DOUBLE_TAKE),
        (0.85, CubeAction.DOUBLE_PASS),
    ],
)
def test_gammonless_actions_near_money(win: float, action: CubeAction) -> None:
    view = View.of(C, gammonless(win), LONG_MATCH, LONG_MATCH, False, CONTACT_EFFICIENCY)
    assert analyse(view, 1, centred=True).action is action
