"""``TurnGenerator.packed_results`` (the computer's replies) has its own search without
steps: it must give exactly the positions of ``plays``, in the same order."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import GameState, MatchConfig, Phase, Variant
from engine.conformance import state_from_request
from engine.movegen import TurnGenerator, roll_dice

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _same_as_plays(variant: Variant, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
    for d1, d2 in ROLLS:
        for head in (1, 2):
            gen = TurnGenerator(variant, roll_dice(d1, d2), head)
            plays = gen.plays(mine, theirs)
            wanted = [bytes(p.mine) + bytes(p.theirs) for p in plays]
            assert gen.packed_results(mine, theirs) == wanted, (variant, mine, theirs, d1, d2)


def _positions(variant: Variant, seed: int, count: int) -> list[tuple[tuple[int, ...], ...]]:
    """Positions met by a random game, from the side on roll."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(variant))
    out = []
    while not state.is_over and len(out) < count:
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
            continue
        if state.phase is Phase.ROLL:
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        out.append((state.checkers[state.turn], state.checkers[state.turn.other]))
        plays = state.legal_plays()
        state = state.play(rng.choice(plays)) if plays else state.confirm()
    return out


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.LONG])
def test_packed_results_are_the_plays_positions_in_random_games(variant):
    for seed in range(3):
        for mine, theirs in _positions(variant, seed, 60)[::3]:
            _same_as_plays(variant, mine, theirs)


@pytest.mark.parametrize("name", ["classic_legal_plays.jsonl", "long_legal_plays.jsonl"])
def test_packed_results_are_the_plays_positions_on_the_vectors(vectors_dir: Path, name):
    lines = (vectors_dir / name).read_text().splitlines()
    for line in lines[::4]:
        state = state_from_request(json.loads(line))
        start = state.turn_start
        assert start is not None
        _same_as_plays(state.variant, start[state.turn], start[state.turn.other])
