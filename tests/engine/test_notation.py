"""Notation from the mover's side: printing any play canonically and reading typed moves."""

from __future__ import annotations

import pytest
from engine_support import ck, classic, long_, move_state

from engine import AmbiguousMoveError, IllegalMoveError, MoveProblem, NotationError, Variant
from engine.board import BAR, LONG_OPPOSITE, start
from engine.moves import Step
from engine.notation import format_play, format_steps, read_play

OPENING_31 = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (3, 1))


def typed(state, text: str) -> str:
    return format_play(read_play(state, text))


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
    with pytest.raises(IllegalMoveError, match="dice") as err:
        typed(OPENING_31, "13/9 6/5")  # 13/9 would need a 4
    assert err.value.problem is MoveProblem.WRONG_DICE


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
            again = read_play(state, format_play(play))
            assert again.key == play.key


# --- Typed moves read strictly, refused with the reason ------------------------------


def refusal(state, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as err:
        typed(state, text)
    assert not isinstance(err.value, AmbiguousMoveError), err.value
    return err.value


def test_a_dash_reads_as_a_slash():
    assert typed(OPENING_31, "24-21 6-5") == "24/21 6/5"
    assert typed(OPENING_31, "24-21-20") == "24/20"


def test_written_intermediate_points_must_be_real_landings():
    state = classic({13: 2, 6: 13}, {12: 15}, (6, 5))
    assert typed(state, "13/7/2") == typed(state, "13/8/2") == "13/2"
    problem = refusal(state, "13/10/2")  # 13/10 is no die of 6-5
    assert problem.problem is MoveProblem.WRONG_DICE


def test_a_point_held_by_the_opponent_is_named():
    # Their 18 is my 7: two of theirs close it; my 8 stays open.
    state = classic({13: 2, 6: 13}, {18: 2, 24: 13}, (6, 5))
    problem = refusal(state, "13/7 13/8")
    assert (problem.problem, problem.point) == (MoveProblem.CLOSED_POINT, 7)
    assert typed(state, "13/2") == "13/2"  # unwritten, the landing may be 8
    assert refusal(state, "13/7/2").point == 7  # written, it must be 7
    closed_both = classic({13: 2, 6: 13}, {18: 2, 17: 2, 11: 11}, (6, 5))
    problem = refusal(closed_both, "13/2")
    assert (problem.problem, problem.point) == (MoveProblem.CLOSED_POINT, 8)


def test_a_star_must_fall_on_a_hit():
    problem = refusal(OPENING_31, "8/5* 6/5")
    assert (problem.problem, problem.point) == (MoveProblem.NO_BLOT, 5)
    blot = classic({13: 1, 6: 14}, {17: 1, 24: 14}, (6, 5))  # their 17 is my 8
    assert typed(blot, "13/8*/2") == "13/8*/2"
    assert refusal(blot, "13/7*/2").problem is MoveProblem.NO_BLOT


def test_checkers_on_the_bar_enter_first():
    entering = classic({BAR: 1, 6: 14}, {12: 15}, (3, 1))
    assert refusal(entering, "6/3 6/5").problem is MoveProblem.BAR_FIRST


def test_bearing_off_needs_every_checker_home():
    state = classic({13: 1, 6: 14}, {12: 15}, (6, 3))
    assert refusal(state, "13/10 6/off").problem is MoveProblem.NOT_HOME


def test_an_incomplete_move_says_how_many_dice_to_use():
    problem = refusal(OPENING_31, "8/5")
    assert (problem.problem, problem.need) == (MoveProblem.INCOMPLETE, 2)


def test_when_one_die_can_be_played_it_must_be_the_larger():
    # My 2 is closed: 13/7/2 and 13/8/2 are both blocked, so one die only, the 6.
    state = classic({13: 1}, {23: 2, 24: 13}, (6, 5))
    assert typed(state, "13/7") == "13/7"
    assert refusal(state, "13/8").problem is MoveProblem.LARGER_DIE


def test_moving_from_a_point_without_checkers_names_it():
    problem = refusal(OPENING_31, "20/17 21/20")
    assert problem.problem is MoveProblem.NO_CHECKER and problem.point in (20, 21)


def test_long_has_no_star_and_names_its_own_rules():
    start_long = ck({24: 15})
    state = move_state(Variant.LONG, start_long, start_long, (6, 5))
    assert refusal(state, "24/18*").problem is MoveProblem.NO_HITTING
    assert refusal(state, "24/18 24/19").problem is MoveProblem.HEAD_RULE
    assert typed(state, "24/13") == "24/13"
    # Their head (my 12) closes the point: 24/12 with 6-6 cannot stop there.
    sixes = move_state(Variant.LONG, start_long, start_long, (6, 6))
    problem = refusal(sixes, "24/12 24/12")
    assert (problem.problem, problem.point) == (MoveProblem.CLOSED_POINT, 12)
    # 9/7 would close six points in a row (7..2) with nobody of theirs past them.
    their_head = {LONG_OPPOSITE[12]: 15}  # on my 12
    block = long_({6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 9: 1, 24: 9}, their_head, (2, 1))
    assert refusal(block, "9/7 24/23").problem is MoveProblem.BLOCK_RULE
