"""Hand-built cases for every rule of backgammon lungo (long nardy) in docs/RULES.md#long.

Each side counts from its own head (24). The opponent's point q is my point p with
LONG_OPPOSITE[p] == q; ``at(p)`` converts so the positions read in the mover's numbering.
Along the opponent's path my points run 12, 11, ..., 1, 24, 23, ..., 13.
"""

from __future__ import annotations

from engine_support import long_, move_state, notations

from engine import Side, Variant
from engine.board import LONG_OPPOSITE, OFF, start, validate

START = start(Variant.LONG)


def at(points: dict[int, int]) -> dict[int, int]:
    """Opponent checkers given on *my* points, converted to their numbering."""
    return {LONG_OPPOSITE[p]: n for p, n in points.items()}


def first_steps(state) -> set[tuple[int, int]]:
    return {(s.src, s.dst) for s in state.legal_steps()}


def test_start_has_all_fifteen_on_the_head_and_the_heads_are_opposite():
    assert START[24] == 15 and sum(START) == 15
    assert LONG_OPPOSITE[24] == 12 and LONG_OPPOSITE[12] == 24
    validate(START, START, Variant.LONG)


def test_head_rule_only_one_checker_leaves_the_head_on_a_normal_roll():
    state = move_state(Variant.LONG, START, START, (6, 5), first_turn=True)
    assert notations(state) == {"24/13"}


def test_head_rule_first_turn_6_6_lets_two_checkers_leave_the_head():
    state = move_state(Variant.LONG, START, START, (6, 6), first_turn=True)
    assert notations(state) == {"24/18(2)"}  # 18/12 is the opponent's head: closed


def test_head_rule_first_turn_3_3_lets_two_checkers_leave_the_head():
    state = move_state(Variant.LONG, START, START, (3, 3), first_turn=True)
    assert notations(state) == {"24/18(2)", "24/21 24/15"}


def test_head_rule_first_turn_4_4_lets_two_checkers_leave_the_head():
    state = move_state(Variant.LONG, START, START, (4, 4), first_turn=True)
    assert notations(state) == {"24/16(2)"}


def test_head_rule_first_turn_5_5_still_allows_one_checker():
    state = move_state(Variant.LONG, START, START, (5, 5), first_turn=True)
    assert notations(state) == {"24/4"}


def test_black_4_4_after_white_opened_5_5_moves_one_checker_by_one_step_of_4():
    state = move_state(
        Variant.LONG,
        START,
        START,
        (4, 4),
        side=Side.BLACK,
        first_turn=True,
        white_first_roll=(5, 5),
    )
    (play,) = state.legal_plays()
    assert [(s.src, s.dst) for s in play.steps] == [(24, 20)]


def test_black_4_4_after_another_white_opening_uses_the_normal_exception():
    state = move_state(
        Variant.LONG,
        START,
        START,
        (4, 4),
        side=Side.BLACK,
        first_turn=True,
        white_first_roll=(6, 5),
    )
    assert notations(state) == {"24/16(2)"}


def test_head_rule_later_turns_allow_one_head_checker_even_with_6_6():
    state = long_({24: 10, 18: 5}, at({12: 15}), (6, 6))
    for play in state.legal_plays():
        assert sum(s.src == 24 for s in play.steps) <= 1


def test_no_hitting_a_point_with_one_opposing_checker_is_closed():
    state = long_({24: 14, 20: 1}, at({12: 14, 18: 1}), (2, 1))
    assert all(s.dst != 18 for p in state.legal_plays() for s in p.steps)


def test_block_rule_six_consecutive_points_are_illegal_with_no_opponent_past_them():
    # Mine on 6..2 and a checker on 9: 9/7 would make 7..2, six in a row, and the only
    # opposing checkers (on my 12, their head) are behind the block.
    mine = {6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 9: 1, 24: 9}
    state = long_(mine, at({12: 15}), (2, 1))
    assert (9, 7) not in first_steps(state)
    for play in state.legal_plays():
        assert not all(play.mine[p] for p in (7, 6, 5, 4, 3, 2))


def test_block_rule_six_consecutive_points_are_legal_once_an_opponent_checker_is_past():
    mine = {6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 9: 1, 24: 9}
    state = long_(mine, at({12: 14, 13: 1}), (2, 1))  # my 13 is the end of their path
    assert (9, 7) in first_steps(state)


def test_block_rule_is_checked_at_every_step_not_only_at_the_end():
    # 9/7 first makes six in a row (illegal even though 2/1 afterwards would break it);
    # 2/1 first, then 9/7, is fine.
    mine = {6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 9: 1, 24: 9}
    state = long_(mine, at({12: 15}), (2, 1))
    assert "9/7 2/1" in notations(state)
    assert (2, 1) in first_steps(state)
    after = state.step((2, 1))
    assert (9, 7) in first_steps(after)


def test_block_rule_counts_consecutive_points_across_1_and_24():
    # 3, 2, 1, 24, 23, 22 are consecutive along the opponent's path.
    mine = {2: 1, 1: 1, 24: 1, 23: 1, 22: 1, 5: 1, 20: 9}
    state = long_(mine, at({12: 15}), (2, 1))
    assert (5, 3) not in first_steps(state)


def test_block_rule_points_12_and_13_are_not_consecutive():
    # The opponent's path starts at my 12 and ends at my 13: 12 and 13 never join a run.
    mine = {13: 2, 14: 1, 15: 1, 16: 1, 17: 1, 20: 1, 24: 8}
    state = long_(mine, at({11: 15}), (2, 1))
    steps = first_steps(state)
    assert (13, 12) in steps  # 12..17 in my numbering, but not along their path
    assert (20, 18) not in steps  # 18..13 is six in a row with nobody past it


def test_long_bear_off_exact_higher_die_and_move_inside_first():
    state = long_({6: 1, 3: 1}, at({12: 15}), (6, 5))
    assert notations(state) == {"6/off 3/off", "6/1 3/off"}


def test_long_bear_off_needs_all_fifteen_home():
    state = long_({7: 1, 2: 3}, at({12: 15}), (6, 5))
    for play in state.legal_plays():
        offs = [i for i, s in enumerate(play.steps) if s.dst == OFF]
        assert not offs or play.steps[0].src == 7


def test_long_no_legal_move_passes_the_turn():
    state = long_({24: 15}, at({p: 2 for p in (23, 22, 21, 20, 19)} | {18: 5}), (6, 5))
    assert state.legal_plays() == []
    assert state.confirm().turn is Side.BLACK


def test_long_maximum_usage_larger_die_when_only_one_can_be_played():
    # One checker on 20: 20/14 and 20/15 are open, 20/9 is closed (my 9).
    state = long_({20: 1}, at({9: 15}), (6, 5))
    assert notations(state) == {"20/14"}


def test_long_plays_are_deduplicated_by_position():
    state = long_({24: 5, 20: 3, 16: 3, 10: 4}, at({12: 15}), (1, 1))
    keys = [p.key for p in state.legal_plays()]
    assert len(keys) == len(set(keys)) > 10
