"""Hand-built cases for every classic rule of docs/RULES.md#classic, one test per rule.

Positions are written in each side's own numbering: to close my point x the opponent holds
their point 25 - x; my bar entry with die n lands on my point 25 - n (their point n).
"""

from __future__ import annotations

import pytest
from engine_support import ck, classic, move_state, notations

from engine import IllegalMoveError, Variant
from engine.board import BAR, OFF, pips, start


def test_opening_roll_3_1_has_the_16_gnubg_plays():
    state = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (3, 1))
    assert len(state.legal_plays()) == 16
    assert "8/5 6/5" in notations(state)


def test_bar_entry_comes_before_any_other_move():
    state = classic({BAR: 1, 13: 14}, {19: 15}, (6, 1))
    for play in state.legal_plays():
        assert play.steps[0].src == BAR
    assert notations(state) >= {"bar/19 13/12", "bar/24 13/7", "bar/18"}


def test_bar_entry_on_a_closed_point_is_refused():
    # Their point 6 (my 19) is closed: the 6 cannot enter, only the 1 can; then the 6
    # is played normally by the entered checker or another one.
    state = classic({BAR: 1, 13: 14}, {6: 2, 1: 13}, (6, 1))
    assert all(p.steps[0].dst == 24 for p in state.legal_plays())


def test_closed_board_with_a_checker_on_the_bar_has_no_move_and_the_turn_passes():
    state = classic({BAR: 1, 13: 14}, {p: 2 for p in range(1, 7)} | {7: 3}, (6, 5))
    assert state.legal_plays() == []
    assert state.play_complete
    after = state.confirm()
    assert after.turn is state.turn.other


def test_two_on_the_bar_only_entries_are_played_until_both_are_in():
    state = classic({BAR: 2, 13: 13}, {1: 15}, (5, 3))
    assert {tuple(s.src for s in p.steps) for p in state.legal_plays()} == {(BAR, BAR)}


def test_what_remains_after_the_last_entry_is_played_normally():
    state = classic({BAR: 1, 6: 14}, {1: 15}, (4, 2))
    assert all(len(p.steps) == 2 for p in state.legal_plays())
    assert "bar/21 6/4" in notations(state)
    assert "bar/19" in notations(state)  # the entered checker goes on: bar/21/19 or bar/23/19


def test_one_checker_uses_both_dice_only_through_an_open_intermediate_point():
    # My 7 is closed: 13/7/2 is impossible, 13/8/2 is fine.
    state = classic({13: 1, 1: 14}, {18: 2, 24: 13}, (6, 5))
    assert notations(state) == {"13/2"}
    (play,) = state.legal_plays()
    assert [(s.src, s.dst) for s in play.steps] == [(13, 8), (8, 2)]


def test_combined_move_may_hit_a_blot_on_the_intermediate_point():
    # A blot on my 8 (their 17): 13/8*/2 hits on the way, 13/7/2 does not; both end on 2.
    state = classic({13: 1}, {17: 1, 24: 14}, (6, 5))
    assert notations(state) == {"13/8*/2", "13/2"}


def test_hit_sends_the_blot_to_the_bar():
    state = classic({13: 1, 6: 14}, {17: 1, 24: 14}, (5, 5))  # blot on my 8
    hits = [p for p in state.legal_plays() if any(s.hit for s in p.steps)]
    assert hits
    for play in hits:
        assert play.theirs[BAR] == 1 and play.theirs[17] == 0


def test_both_dice_must_be_played_when_some_order_allows_it():
    # My 8 is closed: 13/8 fails, but 13/7 then 7/2 uses both dice, so the lone 13/7
    # (one die) is not a legal play.
    state = classic({13: 1, 1: 14}, {17: 2, 12: 13}, (6, 5))
    assert notations(state) == {"13/2"}
    (play,) = state.legal_plays()
    assert [s.die for s in play.steps] == [6, 5]


def test_when_either_die_but_not_both_can_be_played_the_larger_is_played():
    # A lone checker on 13 (the others are off, so no bearing off): 13/7 and 13/8 are
    # open, but my point 2 is closed so it cannot use both. Only the 6 may be played.
    state = classic({13: 1}, {23: 2, 24: 13}, (6, 5))
    assert notations(state) == {"13/7"}


def test_when_only_the_smaller_die_can_be_played_it_is_played():
    state = classic({13: 1}, {18: 2, 23: 2, 24: 11}, (6, 5))  # my 7 and 2 closed
    assert notations(state) == {"13/8"}


def test_a_double_is_played_as_many_times_as_possible():
    state = classic({13: 1}, {24: 2, 1: 13}, (4, 4))  # my 1 closed: 13/9/5 then stuck? 5/1
    assert {len(p.steps) for p in state.legal_plays()} == {2}
    assert notations(state) == {"13/5"}


def test_a_double_uses_all_four_when_possible():
    state = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (2, 2))
    assert {len(p.steps) for p in state.legal_plays()} == {4}


def test_bearing_off_with_the_exact_die():
    state = classic({6: 1, 5: 1, 3: 1}, {12: 15}, (5, 3))
    assert "5/off 3/off" in notations(state)


def test_bearing_off_with_a_higher_die_from_the_highest_point():
    state = classic({3: 1, 2: 1}, {12: 15}, (6, 5))
    assert notations(state) == {"3/off 2/off"}


def test_bearing_off_needs_a_move_inside_when_a_higher_point_is_occupied():
    # Die 4, point 4 empty, a checker on 6: the 4 must be played 6/2, not 3/off.
    state = classic({6: 1, 3: 1}, {12: 15}, (4, 4))
    for play in state.legal_plays():
        first = play.steps[0]
        assert (first.src, first.dst) == (6, 2)


def test_no_bearing_off_while_a_checker_is_outside_home():
    state = classic({7: 1, 2: 5}, {12: 15}, (6, 2))
    for play in state.legal_plays():
        before_home = [s for s in play.steps if s.dst == OFF]
        # a checker may bear off only after the one on 7 came home (7/1 then 2/off)
        if before_home:
            assert play.steps[0].src == 7


def test_no_bearing_off_while_a_checker_is_on_the_bar():
    state = classic({BAR: 1, 2: 5}, {12: 15}, (6, 1))
    assert all(s.dst != OFF for p in state.legal_plays() for s in p.steps)


def test_bearing_off_is_not_compulsory_when_another_move_exists():
    state = classic({6: 2, 2: 2}, {12: 15}, (2, 1))
    assert notations(state) == {"6/5 6/4", "6/3", "6/4 2/1", "6/5 2/off", "2/1 2/off"}


def test_no_legal_move_gives_no_plays():
    state = classic({BAR: 1, 13: 14}, {p: 2 for p in range(1, 7)} | {8: 3}, (3, 3))
    assert state.legal_plays() == []


def test_a_forced_move_has_a_single_play():
    state = classic({13: 1}, {18: 2, 23: 2, 24: 11}, (6, 5))
    assert len(state.legal_plays()) == 1


def test_plays_are_deduplicated_by_resulting_position():
    state = move_state(Variant.CLASSIC, start(Variant.CLASSIC), start(Variant.CLASSIC), (1, 1))
    keys = [p.key for p in state.legal_plays()]
    assert len(keys) == len(set(keys))


def test_pips_drop_by_the_dice_played_in_a_simple_move():
    state = classic({13: 15}, {12: 15}, (6, 5))
    for play in state.legal_plays():
        assert pips(play.mine) == pips(ck({13: 15})) - 11


def test_an_illegal_step_is_refused_with_a_reason():
    state = classic({13: 1}, {18: 2, 23: 2, 24: 11}, (6, 5))
    with pytest.raises(IllegalMoveError, match="not legal"):
        state.step((13, 7))
