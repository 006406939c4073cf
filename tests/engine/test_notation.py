"""Notation from the mover's side: printing any play canonically and reading typed moves."""

from __future__ import annotations

import pytest
from engine_support import classic, move_state

from engine import AmbiguousMoveError, IllegalMoveError, NotationError, Variant
from engine.board import BAR, start
from engine.moves import Step
from engine.notation import format_play, format_steps, match_play

OPENING_31 = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (3, 1))


def typed(state, text: str) -> str:
    mine = state.turn_start[state.turn]
    return format_play(match_play(text, mine, state.legal_plays()))


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([Step(13, 7, 6), Step(8, 5, 3, True)], "13/7 8/5*"),
        ([Step(BAR, 22, 3)], "bar/22"),
        ([Step(6, 0, 6)], "6/off"),
        ([Step(24, 18, 6), Step(24, 18, 6)], "24/18(2)"),
        ([Step(13, 7, 6), Step(7, 2, 5)], "13/2"),
        ([Step(13, 7, 6, True), Step(7, 2, 5)], "13/7*/2"),
        ([Step(8, 5, 3), Step(6, 5, 1)], "8/5 6/5"),
        ([Step(6, 5, 1), Step(8, 5, 3)], "8/5 6/5"),
        ([], ""),
    ],
)
def test_format_prints_the_usual_forms(steps, text):
    assert format_steps(steps) == text


def test_format_is_the_same_whatever_order_the_steps_were_made():
    assert format_steps([Step(5, 4, 1), Step(8, 5, 3)]) == format_steps(
        [Step(8, 5, 3), Step(5, 4, 1)]
    )


@pytest.mark.parametrize("text", ["8/5 6/5", "6/5 8/5", "8-5 6-5", "8/5, 6/5", " 8/5   6/5 "])
def test_parse_accepts_the_usual_forms_in_any_order(text):
    assert typed(OPENING_31, text) == "8/5 6/5"


def test_parse_one_checker_with_both_dice_written_either_way():
    assert typed(OPENING_31, "24/20") == typed(OPENING_31, "24/21/20") == "24/20"


def test_parse_repeats_and_bar_and_off():
    double = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (6, 6))
    assert typed(double, "24/18(2) 13/7(2)") == "24/18(2) 13/7(2)"
    entering = classic({BAR: 1, 6: 14}, {12: 15}, (3, 1))
    assert typed(entering, "bar/22 6/5") == "bar/22 6/5"
    bearing = classic({6: 1, 3: 1}, {12: 15}, (6, 3))
    assert typed(bearing, "6/off 3/off") == "6/off 3/off"


def test_parse_refuses_an_illegal_move_with_a_reason():
    with pytest.raises(IllegalMoveError, match="not legal"):
        typed(OPENING_31, "13/9 6/5")  # 13/9 would need a 4


def test_parse_refuses_an_incomplete_move():
    with pytest.raises(IllegalMoveError, match="incomplete"):
        typed(OPENING_31, "8/5")


def test_parse_refuses_moving_checkers_that_are_not_there():
    with pytest.raises(IllegalMoveError, match="don't have"):
        typed(OPENING_31, "20/17 21/20")


def test_parse_takes_the_quiet_path_when_no_hit_is_marked():
    # 13/2 with 6-5 may go through my 8 (a blot: hit) or my 7 (open).
    state = classic({13: 1}, {17: 1, 24: 14}, (6, 5))
    assert typed(state, "13/2") == "13/2"
    assert typed(state, "13/8*/2") == "13/8*/2"


def test_parse_refuses_an_ambiguous_move_and_lists_the_options():
    # Blots on my 8 and my 7: 13/2 hits one of them, and the text does not say which.
    state = classic({13: 1}, {17: 1, 18: 1, 24: 13}, (6, 5))
    with pytest.raises(AmbiguousMoveError) as err:
        typed(state, "13/2")
    assert set(err.value.options) == {"13/8*/2", "13/7*/2"}
    assert typed(state, "13/7*/2") == "13/7*/2"


@pytest.mark.parametrize(
    "text", ["", "   ", "13", "13/", "x/5", "25/20", "13/7/9", "5/8", "off/3", "13/7(5)"]
)
def test_parse_refuses_text_that_is_not_notation(text):
    with pytest.raises(NotationError):
        typed(OPENING_31, text)


def test_parse_with_no_possible_move_says_so():
    state = classic({BAR: 1, 13: 14}, {p: 2 for p in range(1, 7)} | {7: 3}, (6, 5))
    with pytest.raises(IllegalMoveError, match="no move"):
        typed(state, "bar/19")


def test_every_legal_play_reads_back_from_its_own_printed_form():
    for dice in [(3, 1), (6, 6), (5, 2), (1, 1)]:
        state = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), dice)
        for play in state.legal_plays():
            again = match_play(format_play(play), state.turn_start[state.turn], state.legal_plays())
            assert again.key == play.key
