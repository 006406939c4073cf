"""Random whole matches played through the engine, kept as transcripts for the export tests.

Each match is reproducible from its seed; it doubles, takes, drops and resigns now and then
so every kind of line a match file has shows up somewhere.
"""

from __future__ import annotations

import random

from engine import GameState, MatchConfig, Phase, ResultKind, Side, Variant
from engine.transcript import GameTranscript, MatchTranscript, game_transcript


def _next(state: GameState, rng: random.Random) -> GameState:
    """One random decision or roll."""
    if state.phase is Phase.OPENING:
        return state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
    if state.phase is Phase.ROLL:
        if state.cube_available and rng.random() < 0.08:
            return state.double()
        if rng.random() < 0.02:
            levels = state.resign_levels(state.turn)
            return state.resign(state.turn, rng.choice(levels).kind)
        return state.roll(rng.randint(1, 6), rng.randint(1, 6))
    if state.phase is Phase.DOUBLED:
        return state.take() if rng.random() < 0.7 else state.drop()
    plays = state.legal_plays()
    if not plays:
        return state.confirm()
    return state.play(rng.choice(plays))


def random_match(
    config: MatchConfig, seed: int, names: tuple[str, str] = ("Anna", "Bruno")
) -> tuple[MatchTranscript, GameState]:
    """A whole match of random play: its transcript and the final state."""
    rng = random.Random(seed)
    state = GameState.new_match(config)
    games: list[GameTranscript] = []
    while True:
        states = [state]
        while not state.is_over:
            state = _next(state, rng)
            states.append(state)
        games.append(game_transcript(states))
        if state.phase is Phase.MATCH_OVER:
            return MatchTranscript(config, names, tuple(games)), state
        state = state.next_game()


CLASSIC_MATCH = MatchConfig(Variant.CLASSIC, 5)
LONG_SERIES = MatchConfig(Variant.LONG, 3, last_roll=True)

__all__ = ["CLASSIC_MATCH", "LONG_SERIES", "ResultKind", "Side", "random_match"]
