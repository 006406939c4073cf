"""GNU Backgammon's 0-ply net as a benchmark opponent (classic only).

Why: the computer's strength target is stated against GNU Backgammon at 0-ply, the
reference program's own network without look-ahead. It comes from PyPI ``gnubg-nn`` (GPL),
an optional ``bench`` extra used only by benchmarks and tests: nothing of it ships with the
bot, and nothing is trained on its evaluations.

The player asks GNU Backgammon for its best move, applies the move's steps to the board and
returns the legal play of the engine that reaches the same position; a move the engine does
not know as legal is an error, so every benchmark game checks legality as well.
"""

from __future__ import annotations

import random
from functools import cache
from types import ModuleType

from engine.board import BAR, OFF, Checkers
from engine.game import GameState
from engine.moves import Play


@cache
def gnu_backgammon() -> ModuleType:
    """The ``gnubg_nn`` module (the optional ``bench`` extra), or exit saying how to get it."""
    try:
        import gnubg_nn
    except ImportError as exc:
        raise SystemExit(
            "the gnubg0 player needs PyPI gnubg-nn: pip install -e '.[bench]'"
        ) from exc
    module: ModuleType = gnubg_nn
    return module


def board(mine: Checkers, theirs: Checkers) -> list[list[int]]:
    """GNU Backgammon's board: [opponent, side on roll], points 1..24 then the bar."""
    return [list(theirs[1:26]), list(mine[1:26])]


def apply(mine: Checkers, theirs: Checkers, steps: tuple[tuple[int, int], ...]) -> Checkers:
    """The mover's checkers after GNU Backgammon's (from, to) steps (25 bar, 0 off)."""
    me, them = list(mine), list(theirs)
    for src, dst in steps:
        me[src] -= 1
        me[dst] += 1
        if dst != OFF and them[25 - dst] == 1:  # a hit: their point 25 - dst is my dst
            them[25 - dst] = 0
            them[BAR] += 1
    return tuple(me) + tuple(them)


def gnubg_player(state: GameState, rng: random.Random) -> Play | None:
    """GNU Backgammon's 0-ply choice for the state's roll (classic)."""
    del rng
    plays = state.legal_plays()
    if not plays:
        return None
    if len(plays) == 1:
        return plays[0]
    if state.dice is None:
        raise ValueError("no dice rolled")
    mine, theirs = state.checkers[state.turn], state.checkers[state.turn.other]
    d1, d2 = state.dice
    steps = gnu_backgammon().best_move(board(mine, theirs), d1, d2, n=0)
    after = apply(mine, theirs, tuple((int(a), int(b)) for a, b in steps))
    for play in plays:
        if play.mine + play.theirs == after:
            return play
    raise AssertionError(f"GNU Backgammon's move {steps} is not a legal play here")
