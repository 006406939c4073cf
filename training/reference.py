"""Reference players for benchmarks and tests: random, greedy (long) and pubeval (classic).

Each is a function ``(state, rng) -> Play | None`` like the levels, so the benchmark can pit
any two against each other.
"""

from __future__ import annotations

import random

from engine.board import pips
from engine.game import GameState
from engine.moves import Play
from training import pubeval


def random_player(state: GameState, rng: random.Random) -> Play | None:
    """A uniformly random legal play."""
    plays = state.legal_plays()
    return rng.choice(plays) if plays else None


def greedy_player(state: GameState, rng: random.Random) -> Play | None:
    """Long: most pips moved, then most points held (a checker holds a point in long)."""
    plays = state.legal_plays()
    if not plays:
        return None
    before = pips(state.checkers[state.turn])

    def score(p: Play) -> tuple[int, int]:
        return (before - pips(p.mine), sum(1 for n in p.mine[1:25] if n))

    best = max(score(p) for p in plays)
    return rng.choice([p for p in plays if score(p) == best])


def pubeval_player(state: GameState, rng: random.Random) -> Play | None:
    """Classic: Tesauro's pubeval picks the play."""
    mine, theirs = state.checkers[state.turn], state.checkers[state.turn.other]
    return pubeval.choose(state.legal_plays(), mine, theirs)
