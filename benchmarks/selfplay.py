"""Games of the computer against itself, recorded as the bot records them: the common input
of the benchmarks that measure what happens after a game (records, analyses, replays)."""

from __future__ import annotations

import random

from engine import GameRecord, GameState, MatchConfig, Phase
from engine.ai import Level, accept_double, choose_play, cube_decision


def recorded_game(config: MatchConfig, level: Level, rng: random.Random) -> GameRecord:
    """One game (the first of a match with ``config``) between two players of ``level``."""
    state = GameState.new_match(config)
    record = GameRecord.start(state)
    while not state.is_over:
        before = state
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            if state.cube_available and cube_decision(state, level):
                state = state.double()
            else:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.DOUBLED:
            state = state.take() if accept_double(state, level) else state.drop()
        else:
            play = choose_play(state, level, rng)
            state = state.confirm() if play is None else state.play(play)
        record = record.follow(before, state)
    return record
