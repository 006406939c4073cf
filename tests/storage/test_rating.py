"""The FIBS rating formula (reference implementation of the Lua script's arithmetic)."""

from __future__ import annotations

import pytest

from storage.rating import experience_factor, rating_change, win_probability


def test_equal_players_have_even_chances() -> None:
    assert win_probability(1500, 1500, 7) == pytest.approx(0.5)


def test_favourite_chance_grows_with_match_length() -> None:
    short = win_probability(1700, 1500, 1)
    long = win_probability(1700, 1500, 11)
    assert 0.5 < short < long < 1


def test_known_value_from_the_fibs_formula() -> None:
    # D = 200, N = 1: p = 1 / (1 + 10^(-0.1)) = 0.5573...
    assert win_probability(1700, 1500, 1) == pytest.approx(0.557312, abs=1e-6)
    # winner gains 4 * sqrt(N) * (1 - p) for experienced players
    assert rating_change(1700, 1500, 1, 1.0) == pytest.approx(4 * (1 - 0.557312), abs=1e-5)


def test_experienced_players_exchange_the_same_amount() -> None:
    gain = rating_change(1480, 1620, 5, 1.0)
    loss = rating_change(1620, 1480, 5, 0.0)
    assert gain > 0 > loss
    assert gain == pytest.approx(-loss)


def test_upset_in_a_long_match_moves_ratings_more() -> None:
    assert rating_change(1400, 1600, 9, 1.0) > rating_change(1400, 1600, 1, 1.0)


def test_draw_between_equals_changes_nothing() -> None:
    assert rating_change(1500, 1500, 3, 0.5, experience=0) == pytest.approx(0.0)


def test_newcomers_move_faster_until_400_points_of_experience() -> None:
    assert experience_factor(0) == 5
    assert experience_factor(250) == 2.5
    assert experience_factor(400) == experience_factor(5000) == 1
