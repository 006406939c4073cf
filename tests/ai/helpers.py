"""Positions and game starts for the AI tests, built through GameState."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from benchmarks.analysis_gnubg import played
from engine import GameState, MatchConfig, Phase, Variant, position_id_for
from engine.ai import DecisionKind
from engine.ai.features import input_size
from engine.record import RecordedDecision
from engine.types import Side

#: Column of the first side's hit chance in a classic input row (right after version 1).
HIT = input_size(Variant.CLASSIC, 1)


def checkers(spec: dict[int, int]) -> tuple[int, ...]:
    """One side's 26 counts from {point: checkers} (own numbering); the rest are off."""
    c = [0] * 26
    for p, n in spec.items():
        c[p] = n
    c[0] += 15 - sum(c)
    return tuple(c)


def scattered_sides(seed: int, n: int) -> tuple[list[list[int]], list[list[int]]]:
    """``n`` pairs of sides with checkers scattered at random (some off, some on the bar).

    Not reachable positions, only varied ones: for checking counts over many layouts.
    """
    rng = np.random.default_rng(seed)
    pairs: tuple[list[list[int]], list[list[int]]] = ([], [])
    for _ in range(n):
        for rows in pairs:
            c = [0] * 26
            for p in rng.choice(26, size=15, p=[0.1] + [0.035] * 24 + [0.06]):
                c[int(p)] += 1
            rows.append(c)
    return pairs


def position(
    variant: Variant,
    white: dict[int, int],
    black: dict[int, int],
    *,
    turn: Side = Side.WHITE,
    length: int = 1,
    cube: bool = True,
) -> GameState:
    """A state in the ROLL phase with the given checkers (own numbering, 0 = off)."""
    moved = (True, True)
    config = MatchConfig(variant, length=length, cube=cube)
    return GameState(config, (checkers(white), checkers(black)), Phase.ROLL, turn, has_moved=moved)


def opening(variant: Variant, seed: int) -> GameState:
    """A new single game after its opening roll, in the MOVE phase."""
    dice = random.Random(seed)
    state = GameState.new_match(MatchConfig(variant, length=1, cube=False))
    while state.phase is Phase.OPENING:
        state = state.roll_opening(dice.randint(1, 6), dice.randint(1, 6))
    if state.phase is Phase.ROLL:
        state = state.roll(dice.randint(1, 6), dice.randint(1, 6))
    return state


def at_score(state: GameState, *, white_away: int, black_away: int, post: bool) -> GameState:
    """``state`` in its match with White needing ``white_away`` points and Black
    ``black_away``; ``post``: the Crawford game has been played."""
    length = state.config.length
    score = [0, 0]
    score[state.player_of(Side.WHITE)] = length - white_away
    score[state.player_of(Side.BLACK)] = length - black_away
    return replace(state, score=(score[0], score[1]), crawford_done=post)


def stored_decision(
    match: tuple[str, int, int], game: int, kind: DecisionKind, position_id: str
) -> RecordedDecision:
    """The decision of ``kind`` at ``position_id`` in game ``game`` (from 0) of a stored
    self-play match (``benchmarks/data``; ``match``: its kind, length and seed), which GNU
    Backgammon's cached analysis judged."""
    kind_name, length, seed = match
    record = played(kind_name, length, seed).records[game]
    return next(
        d for d in record.decisions() if d.kind is kind and position_id_for(d.state) == position_id
    )
