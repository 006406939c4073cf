"""The replay's frames: the start, one per action with its caption, and the result."""

from __future__ import annotations

import datetime
import io
import random
from itertools import pairwise

import pytest
from PIL import Image

from bot.views.replay import export_job, replay_frames, replay_gif_job
from engine import (
    ActionKind,
    GameRecord,
    GameState,
    GameTranscript,
    MatchConfig,
    Phase,
    Variant,
    game_transcript,
    parse_match,
)

NAMES = ("Anna", "Bruno")


def random_states(config: MatchConfig, seed: int, *, resign_at: int = 0) -> list[GameState]:
    """The states of one game of random plays, doubles always taken; resigned after
    ``resign_at`` states when it is set."""
    rng = random.Random(seed)
    state = GameState.new_match(config)
    states = [state]
    while not state.is_over:
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL and resign_at and len(states) > resign_at:
            state = state.resign(state.turn)
        elif state.phase is Phase.ROLL and state.cube_available and rng.random() < 0.1:
            state = state.double()
        elif state.phase is Phase.ROLL:
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.DOUBLED:
            state = state.take()
        else:
            plays = state.legal_plays()
            state = state.play(rng.choice(plays)) if plays else state.confirm()
        states.append(state)
    return states


def random_game(config: MatchConfig, seed: int, *, resign_at: int = 0) -> GameTranscript:
    return game_transcript(random_states(config, seed, resign_at=resign_at))


@pytest.mark.parametrize("variant", list(Variant))
def test_one_frame_per_action_after_the_start(variant: Variant) -> None:
    config = MatchConfig(variant, 3)
    game = random_game(config, 4)
    frames = replay_frames(GameState.new_match(config), game, NAMES)
    assert len(frames) == 1 + len(game.actions)
    assert frames[0].caption.startswith("Partita 1: ")
    for number, (frame, action) in enumerate(zip(frames[1:], game.actions, strict=True), 1):
        assert frame.caption.startswith(f"{number}. {NAMES[action.player]} ")
        if action.kind is ActionKind.MOVE:
            assert action.dice is not None
            assert f"{max(action.dice)}-{min(action.dice)}: " in frame.caption
    assert frames[-1].view.banner  # the result is written on the last picture
    assert frames[-1].view.turn is None


def test_doubles_and_takes_have_their_frames() -> None:
    config = MatchConfig(Variant.CLASSIC, 5)
    games = (random_game(config, seed) for seed in range(50))
    game = next(g for g in games if any(a.kind is ActionKind.DOUBLE for a in g.actions))
    captions = [f.caption for f in replay_frames(GameState.new_match(config), game, NAMES)]
    assert any("raddoppia a 2" in c for c in captions)
    assert any("accetta il raddoppio" in c for c in captions)


def test_a_resignation_adds_a_last_frame() -> None:
    config = MatchConfig(Variant.CLASSIC, 3)
    game = random_game(config, 1, resign_at=12)
    frames = replay_frames(GameState.new_match(config), game, NAMES)
    assert len(frames) == 2 + len(game.actions)
    assert frames[-1].caption.endswith("abbandona")


def _record(states: list[GameState]) -> GameRecord:
    record = GameRecord.start(states[0])
    for before, after in pairwise(states):
        record = record.follow(before, after)
    return record


def test_the_job_replays_a_stored_record_into_a_gif_with_every_frame() -> None:
    config = MatchConfig(Variant.LONG, 1)
    states = random_states(config, 2)
    data = replay_gif_job(_record(states).to_doc(), NAMES)
    game = game_transcript(states)
    assert Image.open(io.BytesIO(data)).n_frames == 1 + len(game.actions)


def test_the_export_job_names_and_writes_the_match_file() -> None:
    config = MatchConfig(Variant.CLASSIC, 1)
    states = random_states(config, 3)
    name, text = export_job([_record(states).to_doc()], NAMES, datetime.date(2026, 5, 4))
    assert name == "tavola-20260504.mat"
    match = parse_match(text)
    assert match.names == NAMES
    assert len(match.games) == 1
    assert [a.moves for a in match.games[0].actions] == [
        a.moves for a in game_transcript(states).actions
    ]


def test_the_person_against_the_computer_sits_at_the_bottom() -> None:
    config = MatchConfig(Variant.CLASSIC, 1)
    states = random_states(config, 5)
    game = game_transcript(states)
    white = next(s for s in states if s.phase is not Phase.OPENING).white_player
    seated = replay_frames(states[0], game, NAMES, bottom_player=1 - white)
    assert {f.orientation for f in seated} == {"black"}
    assert {f.orientation for f in replay_frames(states[0], game, NAMES)} == {"white"}
