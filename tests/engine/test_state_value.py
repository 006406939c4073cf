"""GameState is a value: three frozen parts, nothing written into it after it is made, and
the flat field names (``state.score``, ``state.dice``...) read through to the parts."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, replace

import pytest
from engine_support import classic, long_

from engine import GameState, MatchConfig, Phase, Side, Variant
from engine.state_parts import PART_OF_FIELD, GamePart, MatchPart, TurnPart


def _mid_turn() -> GameState:
    state = classic({13: 2, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (6, 1))
    return state.step(state.legal_steps()[0])


def test_asking_for_plays_and_steps_writes_nothing_into_the_state():
    for state in (_mid_turn(), long_({24: 15}, {24: 15}, (6, 5))):
        before = pickle.dumps(state)
        state.legal_plays()
        state.legal_steps()
        assert isinstance(state.play_complete, bool)
        assert state.dice_left
        assert pickle.dumps(state) == before
        assert set(vars(state)) == {"match_part", "game_part", "turn_part"}


@pytest.mark.parametrize("name", ["match_part", "game_part", "turn_part", "score"])
def test_a_state_cannot_be_changed_in_place(name):
    state = _mid_turn()
    with pytest.raises(FrozenInstanceError):
        setattr(state, name, None)
    with pytest.raises(FrozenInstanceError):
        state.game_part.phase = Phase.ROLL  # type: ignore[misc]


def test_every_field_of_the_parts_is_read_by_its_name_on_the_state():
    state = _mid_turn()
    parts = {MatchPart: state.match_part, GamePart: state.game_part, TurnPart: state.turn_part}
    for name, part in PART_OF_FIELD.items():
        assert getattr(state, name) == getattr(parts[part], name), name
    assert state.steps and state.dice == (6, 1) and state.turn_start is not None


def test_a_step_changes_the_game_and_turn_parts_and_keeps_the_match():
    before = long_({24: 15}, {24: 15}, (6, 5))
    after = before.step(before.legal_steps()[0])
    assert after.match_part is before.match_part
    assert after.checkers != before.checkers and len(after.steps) == 1
    assert after.turn_start == before.checkers


def test_a_state_is_built_from_its_flat_fields_and_replace_changes_one():
    config = MatchConfig(Variant.CLASSIC, 5)
    start = GameState.new_match(config).checkers
    state = GameState(config, start, Phase.ROLL, Side.BLACK, cube_value=2, cube_owner=Side.WHITE)
    assert (state.phase, state.turn, state.cube_value, state.cube_owner) == (
        Phase.ROLL,
        Side.BLACK,
        2,
        Side.WHITE,
    )
    later = replace(state, score=(3, 1), phase=Phase.OPENING)
    assert later.score == (3, 1) and later.phase is Phase.OPENING
    assert later.cube_value == 2 and later.config is config
    assert state.score == (0, 0)  # the original is untouched
    assert GameState(match_part=state.match_part, game_part=state.game_part) == state


def test_an_unknown_or_missing_field_is_refused():
    config = MatchConfig(Variant.LONG)
    with pytest.raises(TypeError, match="no field 'scores'"):
        GameState(config, GameState.new_match(config).checkers, scores=(1, 0))
    with pytest.raises(TypeError, match="config and checkers"):
        GameState(config)


def test_a_state_survives_pickling_for_the_computer_workers():
    state = _mid_turn()
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and hash(copy) == hash(state)
    assert copy.legal_steps() == state.legal_steps()


def test_the_step_shortcuts_of_the_parts_agree_with_replace():
    config = MatchConfig(Variant.LONG, 3, last_roll=True)
    state = GameState.new_match(config).roll_opening(6, 2).roll(5, 5)
    state = replace(state, score=(1, 2), cube_value=1, last_roll_turn=True)
    game, turn = state.game_part, state.turn_part
    moved = (state.checkers[1], state.checkers[0])
    assert game.with_checkers(moved) == replace(game, checkers=moved)
    step = state.legal_steps()[0]
    assert turn.with_step(step) == replace(turn, steps=(*turn.steps, step))
