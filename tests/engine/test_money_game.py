"""The money game (classic): one game with the cube, points times the cube, no match
score and no Crawford, and the Jacoby rule (gammons count once the cube was turned)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_support import ck

from engine import (
    EndReason,
    GameState,
    InvalidInputError,
    MatchConfig,
    Phase,
    ResultKind,
    Side,
    Variant,
)
from engine.board import start as board_start
from engine.export import parse, write
from engine.gnubg import match_info_for
from engine.serialize import config_from_doc, config_to_doc, from_dict, to_dict
from engine.transcript import MatchTranscript, game_transcript

MONEY = MatchConfig(Variant.CLASSIC, 0)
NO_JACOBY = MatchConfig(Variant.CLASSIC, 0, jacoby=False)


def _last_roll(config: MatchConfig, loser: dict[int, int]) -> GameState:
    """White bears off its last checker with a 6-5, the cube centred; Black has ``loser``
    (its own numbering, nothing borne off)."""
    state = GameState(
        config,
        (ck({1: 1}), ck(loser, fill_off=False)),
        Phase.ROLL,
        Side.WHITE,
        has_moved=(True, True),
    )
    state = state.roll(6, 5)
    (play,) = state.legal_plays()
    return state.play(play)


def test_money_game_is_classic_length_zero_with_the_cube():
    assert MONEY.money and MONEY.cube_in_play and MONEY.goal == 1
    assert not MatchConfig(Variant.CLASSIC, 1).cube_in_play
    with pytest.raises(InvalidInputError):
        MatchConfig(Variant.LONG, 0)


@pytest.mark.parametrize("cube", [1, 2, 4])
def test_a_single_win_scores_the_cube(cube: int) -> None:
    state = GameState(
        MONEY,
        (ck({1: 1}), ck({2: 1})),
        Phase.ROLL,
        Side.WHITE,
        has_moved=(True, True),
        cube_value=cube,
        cube_owner=None if cube == 1 else Side.WHITE,
    )
    state = state.roll(6, 5)
    (play,) = state.legal_plays()
    end = state.play(play)
    assert end.phase is Phase.MATCH_OVER
    assert end.result is not None
    assert (end.result.kind, end.result.points, end.result.cube) == (ResultKind.SINGLE, cube, cube)


def test_cube_two_taken_scores_two():
    state = GameState(
        MONEY, (ck({1: 1}), ck({2: 1})), Phase.ROLL, Side.WHITE, has_moved=(True, True)
    )
    state = state.double().take().roll(1, 1)  # Black took and now owns the cube
    assert state.cube_value == 2
    end = state.play(state.legal_plays()[0])
    assert end.result is not None and end.result.points == 2
    assert end.score == (2, 0)


def test_gammon_with_jacoby_counts_one_while_the_cube_is_centred():
    end = _last_roll(MONEY, {12: 15})
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.GAMMON, 1)


def test_gammon_without_jacoby_counts_two():
    end = _last_roll(NO_JACOBY, {12: 15})
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.GAMMON, 2)


def test_gammon_with_jacoby_counts_once_the_cube_was_turned():
    state = GameState(
        MONEY,
        (ck({1: 1}), ck({12: 15}, fill_off=False)),
        Phase.ROLL,
        Side.WHITE,
        has_moved=(True, True),
    )
    state = state.double().take()  # Black owns the cube at 2; White cannot redouble
    state = state.roll(6, 5)
    (play,) = state.legal_plays()
    end = state.play(play)
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.GAMMON, 4)


def test_backgammon_and_resignation_levels_follow_jacoby():
    state = GameState(
        MONEY,
        (ck({1: 1}), ck({20: 15}, fill_off=False)),
        Phase.ROLL,
        Side.BLACK,
        has_moved=(True, True),
    )
    levels = [(r.kind, r.points) for r in state.resign_levels(Side.BLACK)]
    assert levels == [
        (ResultKind.SINGLE, 1),
        (ResultKind.GAMMON, 1),
        (ResultKind.BACKGAMMON, 1),
    ]
    off = GameState(
        NO_JACOBY,
        (ck({1: 1}), ck({20: 15}, fill_off=False)),
        Phase.ROLL,
        Side.BLACK,
        has_moved=(True, True),
    )
    assert [r.points for r in off.resign_levels(Side.BLACK)] == [1, 2, 3]


def test_no_crawford_and_a_drop_ends_the_money_game():
    state = GameState(MONEY, (ck({6: 15}), ck({6: 15})), Phase.ROLL, Side.WHITE)
    end = state.double().drop()
    assert end.phase is Phase.MATCH_OVER and not end.crawford
    assert end.result is not None
    assert (end.result.reason, end.result.points) == (EndReason.DROPPED, 1)


def test_cube_stops_at_64():
    state = GameState(
        MONEY,
        (ck({6: 15}), ck({6: 15})),
        Phase.ROLL,
        Side.BLACK,
        has_moved=(True, True),
        cube_value=32,
        cube_owner=Side.BLACK,
    )
    state = state.double().take()
    assert (state.cube_value, state.cube_owner) == (64, Side.WHITE)
    state = replace(state, turn=Side.WHITE)
    assert not state.cube_available


def test_money_config_round_trips_and_old_documents_read_jacoby_on():
    assert config_from_doc(config_to_doc(NO_JACOBY)) == NO_JACOBY
    assert config_from_doc(["classic", 3, 1, 1, 0, "loser"]).jacoby
    state = (
        GameState(MONEY, (ck({6: 15}), ck({6: 15})), Phase.ROLL, Side.WHITE, has_moved=(True, True))
        .double()
        .take()
    )
    assert from_dict(to_dict(state)).cube_value == 2


def test_gnubg_sees_money_play_with_jacoby():
    state = GameState(MONEY, (ck({6: 15}), ck({6: 15})), Phase.ROLL, Side.WHITE)
    info = match_info_for(state)
    assert info.match_length == 0 and not info.no_jacoby
    assert match_info_for(GameState(NO_JACOBY, (ck({6: 15}), ck({6: 15})))).no_jacoby


def test_mat_export_writes_a_zero_point_match_and_reads_it_back():
    start = GameState(NO_JACOBY, (board_start(Variant.CLASSIC), board_start(Variant.CLASSIC)))
    opened = start.roll_opening(3, 1)
    played = opened.play(opened.legal_plays()[0])
    doubled = played.double()
    states = [start, opened, played, doubled, doubled.drop()]
    game = game_transcript(states)
    text = write(MatchTranscript(NO_JACOBY, ("Anna", "Bruno"), (game,)))
    assert " 0 point match" in text and '; [Jacoby "Off"]' in text
    assert parse(text).config == NO_JACOBY
