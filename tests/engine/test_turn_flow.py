"""Turn flow as actions: opening, roll, step, take back, confirm, cube, Crawford, resign,
last roll, and who starts the next game of a match or series."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_support import ck, move_state

from engine import (
    EndReason,
    GameState,
    IllegalActionError,
    IllegalMoveError,
    InvalidInputError,
    MatchConfig,
    Phase,
    ResultKind,
    SeriesStart,
    Side,
    Variant,
)
from engine.board import BAR

CLASSIC5 = MatchConfig(Variant.CLASSIC, length=5)


def classic_match(length: int = 5, cube: bool = True) -> GameState:
    return GameState.new_match(MatchConfig(Variant.CLASSIC, length=length, cube=cube))


def test_classic_opening_tie_rerolls_and_the_higher_die_plays_both_numbers():
    state = classic_match().roll_opening(4, 4)
    assert state.phase is Phase.OPENING
    state = state.roll_opening(1, 3)  # player 1 wins
    assert state.phase is Phase.MOVE
    assert state.turn is state.side_of(1)
    assert state.dice == (3, 1)


def test_long_opening_roll_gives_white_to_the_higher_and_is_not_played():
    state = GameState.new_match(MatchConfig(Variant.LONG)).roll_opening(2, 5)
    assert state.phase is Phase.ROLL and state.turn is Side.WHITE and state.white_player == 1
    state = state.roll(6, 5)
    assert state.phase is Phase.MOVE and state.first_turn


def test_dice_outside_1_to_6_are_refused():
    opening = classic_match()
    with pytest.raises(InvalidInputError, match="die"):
        opening.roll_opening(0, 3)
    ready = GameState.new_match(MatchConfig(Variant.LONG)).roll_opening(2, 5)
    with pytest.raises(InvalidInputError, match="1 to 6"):
        ready.roll(7, 1)


def test_steps_can_be_taken_back_until_the_turn_is_confirmed():
    state = classic_match().roll_opening(3, 1)  # player 0 plays 3-1
    moved = state.step((8, 5)).step((6, 5))
    assert moved.play_complete
    back = moved.undo()
    assert back.steps == (moved.steps[0],) and not back.play_complete
    assert back.undo().checkers == state.checkers
    with pytest.raises(IllegalActionError):
        back.undo().undo()
    done = moved.confirm()
    assert done.phase is Phase.ROLL and done.turn is state.turn.other
    with pytest.raises(IllegalActionError):
        done.undo()


def test_an_incomplete_play_cannot_be_confirmed():
    state = classic_match().roll_opening(3, 1).step((8, 5))
    with pytest.raises(IllegalMoveError, match="not complete"):
        state.confirm()


def test_acting_in_the_wrong_phase_is_refused_with_a_reason():
    state = classic_match()
    with pytest.raises(IllegalActionError, match="phase opening"):
        state.roll(3, 1)
    with pytest.raises(IllegalActionError):
        state.take()


def _at_roll(state: GameState) -> GameState:
    """Play the opening (3-1: 8/5 6/5) so the other side is about to roll."""
    state = state.roll_opening(3, 1)
    return state.play(next(p for p in state.legal_plays() if len(p.steps) == 2))


def test_double_then_take_doubles_the_cube_and_gives_it_to_the_taker():
    state = _at_roll(classic_match())
    doubler = state.turn
    assert state.cube_available
    offered = state.double()
    assert offered.phase is Phase.DOUBLED and offered.turn is doubler.other
    taken = offered.take()
    assert taken.cube_value == 2 and taken.cube_owner is doubler.other
    assert taken.turn is doubler and taken.phase is Phase.ROLL
    assert not taken.cube_available  # the doubler no longer owns the cube


def test_drop_loses_the_value_before_the_double():
    state = _at_roll(classic_match()).double().take()
    state = state.roll(1, 2)
    state = state.play(state.legal_plays()[0])
    redouble = state.double()  # the owner redoubles to 4
    dropped = redouble.drop()
    assert dropped.result.reason is EndReason.DROPPED
    assert dropped.result.points == 2
    assert dropped.result.winner is state.turn


def test_the_cube_stops_at_64():
    state = _at_roll(classic_match(length=64))
    state = replace(state, cube_value=32, cube_owner=state.turn)
    assert state.cube_available
    state = replace(state, cube_value=64)
    assert not state.cube_available
    with pytest.raises(IllegalActionError):
        state.double()


def test_cube_switched_off_and_one_point_matches_have_no_doubling():
    assert not _at_roll(classic_match(cube=False)).cube_available
    assert not _at_roll(classic_match(length=1)).cube_available


def test_crawford_game_has_no_doubling_and_doubling_returns_after_it():
    first = _at_roll(classic_match(length=3)).double().drop()  # 1 point to the doubler
    assert first.phase is Phase.GAME_OVER and first.score == (0, 1)  # player 1 doubled
    leader_at_2 = replace(first, score=(0, 2))  # the leader reaches length - 1
    crawford = leader_at_2.next_game()
    assert crawford.crawford
    assert not _at_roll(crawford).cube_available
    with pytest.raises(IllegalActionError):
        _at_roll(crawford).double()
    crawford_over = replace(_at_roll(crawford), phase=Phase.GAME_OVER, score=(1, 2))
    post = crawford_over.next_game()
    assert not post.crawford and post.crawford_done
    assert _at_roll(post).cube_available


def test_crawford_happens_only_once_per_match():
    first = _at_roll(classic_match(length=5)).double().drop()
    done = replace(first, score=(4, 2), crawford_done=True)
    assert not done.next_game().crawford


def test_resign_single_when_the_resigner_bore_off_a_checker():
    mine, theirs = ck({1: 5}), ck({6: 10})  # white bore off 10, black 5
    state = move_state(Variant.CLASSIC, mine, theirs, (2, 1), config=CLASSIC5)
    assert state.resign_value(Side.BLACK).kind is ResultKind.SINGLE
    over = state.resign(Side.BLACK)
    assert over.result.winner is Side.WHITE and over.result.points == 1


def test_resign_gammon_when_the_resigner_bore_off_nothing():
    state = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 15}), (2, 1), config=CLASSIC5)
    r = state.resign_value(Side.BLACK)
    assert (r.kind, r.points) == (ResultKind.GAMMON, 2)


def test_resign_backgammon_with_a_checker_in_the_winners_home_or_on_the_bar():
    on_bar = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 14, BAR: 1}), (2, 1), config=CLASSIC5)
    assert on_bar.resign_value(Side.BLACK).kind is ResultKind.BACKGAMMON
    in_home = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 14, 20: 1}), (2, 1), config=CLASSIC5)
    r = in_home.resign_value(Side.BLACK)
    assert (r.kind, r.points) == (ResultKind.BACKGAMMON, 3)


def test_resign_value_is_multiplied_by_the_cube():
    state = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 15}), (2, 1), config=CLASSIC5)
    state = replace(state, cube_value=4, cube_owner=Side.BLACK)
    assert state.resign_value(Side.BLACK).points == 8
    assert state.resign(Side.BLACK).score == (8, 0)  # the real score, as gnubg keeps it


def test_long_resign_mars_or_oin_by_position_and_setting():
    mars = move_state(Variant.LONG, ck({1: 5}), ck({20: 15}), (2, 1))
    assert (mars.resign_value(Side.BLACK).kind, mars.resign_value(Side.BLACK).points) == (
        ResultKind.MARS,
        2,
    )
    oin_only = MatchConfig(Variant.LONG, length=3, mars=False)
    flat = move_state(Variant.LONG, ck({1: 5}), ck({20: 15}), (2, 1), config=oin_only)
    assert flat.resign_value(Side.BLACK).points == 1
    oin = move_state(Variant.LONG, ck({1: 5}), ck({20: 14}), (2, 1))
    assert oin.resign_value(Side.BLACK).kind is ResultKind.OIN


def test_bearing_off_the_last_checker_ends_the_game():
    state = move_state(Variant.CLASSIC, ck({1: 1}), ck({6: 15}), (2, 1), config=CLASSIC5)
    over = state.play(state.legal_plays()[0])
    assert over.result.winner is Side.WHITE and over.result.kind is ResultKind.GAMMON
    assert over.result.reason is EndReason.PLAYED and over.score == (2, 0)


def _long_last_roll(their_points: dict[int, int]) -> GameState:
    config = MatchConfig(Variant.LONG, length=3, last_roll=True)
    return move_state(Variant.LONG, ck({1: 1}), ck(their_points), (2, 1), config=config)


def test_last_roll_draw_when_the_other_bears_off_all_remaining_checkers():
    state = _long_last_roll({2: 1})
    state = state.play(state.legal_plays()[0])
    assert state.phase is Phase.ROLL and state.turn is Side.BLACK and state.last_roll_turn
    state = state.roll(3, 1)
    over = state.play(state.legal_plays()[0])
    assert over.result.winner is None and over.result.kind is ResultKind.DRAW
    assert over.score == (0, 0)


def test_last_roll_that_does_not_finish_leaves_the_starter_the_winner():
    state = _long_last_roll({6: 2})
    state = state.play(state.legal_plays()[0]).roll(2, 1)
    over = state.play(state.legal_plays()[0])
    assert over.result.winner is Side.WHITE and over.result.reason is EndReason.LAST_ROLL


def test_without_the_last_roll_setting_the_game_ends_at_once():
    config = MatchConfig(Variant.LONG, length=3, last_roll=False)
    state = move_state(Variant.LONG, ck({1: 1}), ck({2: 1}), (2, 1), config=config)
    assert state.play(state.legal_plays()[0]).is_over


def test_next_classic_game_starts_with_an_opening_roll():
    state = _at_roll(classic_match())
    state = state.resign(state.turn)
    nxt = state.next_game()
    assert nxt.phase is Phase.OPENING and nxt.game_number == 2 and nxt.cube_value == 1


def _long_game_won_by(player: int, series_start: SeriesStart) -> GameState:
    config = MatchConfig(Variant.LONG, length=5, series_start=series_start)
    state = GameState.new_match(config).roll_opening(5, 2)  # player 0 is White
    loser = state.side_of(1 - player)
    return state.resign(loser)


def test_long_series_al_perdente_the_loser_starts_the_next_game_as_white():
    nxt = _long_game_won_by(0, SeriesStart.LOSER).next_game()
    assert nxt.white_player == 1 and nxt.phase is Phase.ROLL and nxt.turn is Side.WHITE
    nxt = _long_game_won_by(1, SeriesStart.LOSER).next_game()
    assert nxt.white_player == 0


def test_long_series_a_turno_the_starter_alternates():
    for winner in (0, 1):
        nxt = _long_game_won_by(winner, SeriesStart.ALTERNATE).next_game()
        assert nxt.white_player == 1


def test_the_match_ends_when_a_player_reaches_the_length():
    state = _at_roll(classic_match(length=1))
    over = state.resign(state.turn)
    assert over.phase is Phase.MATCH_OVER and over.match_winner == state.player_of(state.turn.other)
    with pytest.raises(IllegalActionError):
        over.next_game()


def test_timeout_loses_like_a_resignation():
    state = _at_roll(classic_match())
    over = state.timeout(state.turn)
    assert over.result.reason is EndReason.TIMEOUT and over.result.winner is state.turn.other


def _kinds(results) -> list[ResultKind]:
    return [r.kind for r in results]


def test_classic_resign_levels_are_those_the_game_could_still_end_with():
    # Black bore off a checker: only a single game is left to lose.
    bore_off = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 14}), (2, 1), config=CLASSIC5)
    assert _kinds(bore_off.resign_levels(Side.BLACK)) == [ResultKind.SINGLE]
    # Nothing borne off, every black checker past White's: no hit can send one back.
    race = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 15}), (2, 1), config=CLASSIC5)
    assert _kinds(race.resign_levels(Side.BLACK)) == [ResultKind.SINGLE, ResultKind.GAMMON]
    # White still has a checker behind a black one (contact): a backgammon is possible.
    contact = move_state(
        Variant.CLASSIC, ck({24: 1, 1: 4}), ck({6: 14, 3: 1}), (2, 1), config=CLASSIC5
    )
    assert _kinds(contact.resign_levels(Side.BLACK)) == [
        ResultKind.SINGLE,
        ResultKind.GAMMON,
        ResultKind.BACKGAMMON,
    ]


def test_classic_resign_at_a_chosen_level_charges_that_level_times_the_cube():
    state = move_state(
        Variant.CLASSIC, ck({24: 1, 1: 4}), ck({6: 14, 3: 1}), (2, 1), config=CLASSIC5
    )
    state = replace(state, cube_value=2, cube_owner=Side.WHITE)
    offered = state.resign_value(Side.BLACK, ResultKind.GAMMON)
    assert (offered.kind, offered.points) == (ResultKind.GAMMON, 4)
    over = state.resign(Side.BLACK, ResultKind.GAMMON)
    assert over.result == offered
    race = move_state(Variant.CLASSIC, ck({1: 5}), ck({6: 15}), (2, 1), config=CLASSIC5)
    with pytest.raises(IllegalActionError):
        race.resign(Side.BLACK, ResultKind.BACKGAMMON)


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.LONG])
def test_resign_value_ignores_unconfirmed_steps_as_the_resignation_does(variant):
    # White bears off its first checker with a step it has not confirmed, then resigns:
    # the step can still be taken back, so the value shown and charged is the turn's start.
    config = CLASSIC5 if variant is Variant.CLASSIC else MatchConfig(variant, length=3)
    state = move_state(variant, ck({2: 15}), ck({1: 1, 2: 2}), (2, 1))
    state = replace(state, config=config).step((2, 0, 2))
    shown = state.resign_value(Side.WHITE)
    assert shown.kind in (ResultKind.GAMMON, ResultKind.MARS)
    assert state.resign(Side.WHITE).result == shown
