"""Random whole matches played through the engine, kept as transcripts for the export tests.

Each match is reproducible from its seed; it doubles, takes, drops and resigns now and then
so every kind of line a match file has shows up somewhere.
"""

from __future__ import annotations

import random

from engine import GameState, MatchConfig, Phase, ResultKind, Side, Variant
from engine.transcript import MatchTranscript, game_transcript


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


def random_states(config: MatchConfig, seed: int) -> list[list[GameState]]:
    """A whole match of random play: per game, every state from its start to its end."""
    rng = random.Random(seed)
    state = GameState.new_match(config)
    games: list[list[GameState]] = []
    while True:
        states = [state]
        while not state.is_over:
            state = _next(state, rng)
            states.append(state)
        games.append(states)
        if state.phase is Phase.MATCH_OVER:
            return games
        state = state.next_game()


def random_match(
    config: MatchConfig, seed: int, names: tuple[str, str] = ("Anna", "Bruno")
) -> tuple[MatchTranscript, GameState]:
    """A whole match of random play: its transcript and the final state."""
    games = random_states(config, seed)
    transcript = MatchTranscript(config, names, tuple(game_transcript(g) for g in games))
    return transcript, games[-1][-1]


CLASSIC_MATCH = MatchConfig(Variant.CLASSIC, 5)
LONG_SERIES = MatchConfig(Variant.LONG, 3, last_roll=True)

__all__ = ["CLASSIC_MATCH", "LONG_SERIES", "ResultKind", "Side", "random_match"]
