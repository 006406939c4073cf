"""Strength and speed of the computer opponent: N cubeless single games between two players.

Why: the computer is held to targets in points per game against reference players
(pubeval for classic, a greedy player for long, a random player for both) and to a time
budget per move for Difficile. This script measures them: points per game of player A with a 95%
confidence interval (normal approximation, 1.96 standard errors), A's win rate, the rate of
gammons/backgammons (classic) or mars (long) among all games, and each player's median and
worst time per move (moves with at least two legal plays; the reference players included).

Games alternate who opens; dice come from a generator seeded per game, so a run is
reproducible for given players, seed and number of games. With ``--duplicate`` the two
games of each pair share their dice (the same rolls, seats swapped), which cancels much of
the luck and narrows the interval for the same number of games.

Run from the repository root, for example::

    python -m benchmarks.ai --variant classic --a difficile --b pubeval --games 400
    python -m benchmarks.ai --variant long --a medio --b random --games 200

Players: facile, medio, difficile, random, pubeval (classic), greedy (long), and
medio-v1 / difficile-v1: the same levels with the reference weights (the networks shipped
before the race network, ``engine/ai/weights/reference/``).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import GameState, MatchConfig, Phase, Variant
from engine.ai import Level, choose_play
from engine.ai.model import evaluating_with, load, reference
from engine.ai.reference import greedy_player, pubeval_player, random_player
from engine.moves import Play

Player = Callable[[GameState, random.Random], Play | None]


def _level(level: Level) -> Player:
    def play(state: GameState, rng: random.Random) -> Play | None:
        return choose_play(state, level, rng)

    return play


def _reference_level(level: Level) -> Player:
    def play(state: GameState, rng: random.Random) -> Play | None:
        with evaluating_with(state.variant, reference(state.variant)):
            return choose_play(state, level, rng)

    return play


PLAYERS: dict[str, Player] = {
    "facile": _level(Level.FACILE),
    "medio": _level(Level.MEDIO),
    "difficile": _level(Level.DIFFICILE),
    "medio-v1": _reference_level(Level.MEDIO),
    "difficile-v1": _reference_level(Level.DIFFICILE),
    "random": random_player,
    "pubeval": pubeval_player,
    "greedy": greedy_player,
}


@dataclass
class Tally:
    points: list[int] = field(default_factory=list)  # A's signed points per game
    big: int = 0  # games won or lost by gammon/backgammon/mars
    times: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})


def play_game(
    variant: Variant, a: Player, b: Player, a_first: bool, seed: int, tally: Tally
) -> None:
    dice = random.Random(seed)
    rng = random.Random(seed ^ 0x5EED)
    state = GameState.new_match(MatchConfig(variant, length=1, cube=False))
    while state.phase is Phase.OPENING:
        d0, d1 = dice.randint(1, 6), dice.randint(1, 6)
        if d0 != d1:  # player 0 (A) wins the opening when a_first
            hi, lo = max(d0, d1), min(d0, d1)
            d0, d1 = (hi, lo) if a_first else (lo, hi)
        state = state.roll_opening(d0, d1)
    a_player = 0
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state = state.roll(dice.randint(1, 6), dice.randint(1, 6))
            continue
        who = "A" if state.player_of(state.turn) == a_player else "B"
        player = a if who == "A" else b
        many = len(state.legal_plays()) > 1
        t0 = time.perf_counter()
        play = player(state, rng)
        elapsed = time.perf_counter() - t0
        if many:
            tally.times[who].append(elapsed)
        state = state.confirm() if play is None else state.play(play)
    result = state.result
    assert result is not None and result.winner is not None
    winner_player = state.player_of(result.winner)
    sign = 1 if winner_player == a_player else -1
    tally.points.append(sign * result.points)
    if result.points > 1:
        tally.big += 1


def run(variant: Variant, a: str, b: str, games: int, seed: int, duplicate: bool = False) -> Tally:
    tally = Tally()
    for i in range(games):
        game_seed = seed * 1_000_003 + (i // 2 if duplicate else i)
        play_game(variant, PLAYERS[a], PLAYERS[b], i % 2 == 0, game_seed, tally)
    return tally


def _ms(values: list[float], fn: Callable[[list[float]], float]) -> str:
    return f"{fn(values) * 1000:8.1f}" if values else "       -"


def report(variant: Variant, a: str, b: str, tally: Tally, wall: float) -> str:
    pts = tally.points
    n = len(pts)
    mean = statistics.fmean(pts)
    half = 1.96 * statistics.stdev(pts) / math.sqrt(n) if n > 1 else float("nan")
    wins = sum(1 for p in pts if p > 0) / n
    big = tally.big / n
    ta, tb = tally.times["A"], tally.times["B"]
    return (
        f"| {variant.value:7} | {a:9} | {b:9} | {n:5d} | {mean:+.3f} ± {half:.3f} "
        f"| {wins:6.1%} | {big:6.1%} | {_ms(ta, statistics.median)} | {_ms(ta, max)} "
        f"| {_ms(tb, statistics.median)} | {_ms(tb, max)} | {wall:6.0f} |"
    )


HEADER = (
    "| variant | A         | B         | games | A points/game (95% CI) | A wins "
    "| big    | A med ms | A max ms | B med ms | B max ms | wall s |\n"
    "|---------|-----------|-----------|-------|------------------------|--------"
    "|--------|----------|----------|----------|----------|--------|"
)


def main() -> None:
    ap = argparse.ArgumentParser(description="Computer opponent: strength and speed.")
    ap.add_argument("--variant", choices=["classic", "long"], default="classic")
    ap.add_argument("--a", choices=sorted(PLAYERS), default="difficile")
    ap.add_argument("--b", choices=sorted(PLAYERS), default="random")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duplicate", action="store_true", help="pairs of games share their dice")
    ap.add_argument(
        "--weights", type=Path, default=None, help="weights file for the levels (e.g. a checkpoint)"
    )
    ap.add_argument("--no-header", action="store_true")
    args = ap.parse_args()
    variant = Variant(args.variant)
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if args.weights is not None:
            stack.enter_context(evaluating_with(variant, load(args.weights)))
        tally = run(variant, args.a, args.b, args.games, args.seed, args.duplicate)
    if not args.no_header:
        print(HEADER)
    print(report(variant, args.a, args.b, tally, time.perf_counter() - t0), flush=True)


if __name__ == "__main__":
    main()
