"""Games of the computer against itself: the common input of the benchmarks.

``recorded_game`` records a match game as the bot records it (for the benchmarks that
measure what happens after a game: records, analyses, replays); ``cubeless_game`` walks a
single cubeless game and shows every state on the way (for those that sample positions:
cube decisions, race chances, Facile's losses).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import GameRecord, GameState, MatchConfig, Phase, Variant
from engine.ai import Level, accept_double, choose_play, cube_decision


def recorded_game(config: MatchConfig, level: Level, rng: random.Random) -> GameRecord:
    """One game (the first of a match with ``config``) between two players of ``level``."""
    return _recorded(GameState.new_match(config), level, rng)


def recorded_match(config: MatchConfig, level: Level, rng: random.Random) -> list[GameRecord]:
    """Every game of a whole match with ``config`` between two players of ``level`` (one
    game for a money game), each recorded as the bot records it."""
    state = GameState.new_match(config)
    records: list[GameRecord] = []
    while True:
        record = _recorded(state, level, rng)
        records.append(record)
        state = record.final_state()
        if state.phase is not Phase.GAME_OVER or config.money:
            return records
        state = state.next_game()


def _recorded(state: GameState, level: Level, rng: random.Random) -> GameRecord:
    """The game starting at ``state`` played to its end, recorded."""
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


def cubeless_game(
    variant: Variant, dice: random.Random, rng: random.Random, level: Level = Level.MEDIO
) -> Iterator[GameState]:
    """Every state of one cubeless single game of ``level`` against itself, before each
    action (opening roll, roll, play), until the end. ``dice`` rolls, ``rng`` is the
    level's own randomness; a caller may use ``rng`` too while it looks at a state."""
    state = GameState.new_match(MatchConfig(variant, length=1, cube=False))
    while not state.is_over:
        yield state
        if state.phase is Phase.OPENING:
            state = state.roll_opening(dice.randint(1, 6), dice.randint(1, 6))
        elif state.phase is Phase.ROLL:
            state = state.roll(dice.randint(1, 6), dice.randint(1, 6))
        else:
            play = choose_play(state, level, rng)
            state = state.confirm() if play is None else state.play(play)
