"""Strength and speed of the computer opponent: N cubeless single games between two players.

Why: the computer is held to targets in points per game against reference players
(GNU Backgammon's 0-ply net and pubeval for classic, a greedy player for long, a random
player for both) and to a time budget per move for Difficile. This script measures them:
points per game of player A with a 95% confidence interval, A's win rate, the rate of
gammons/backgammons (classic) or mars (long) among all games, and each player's median,
95th percentile and worst CPU time per move (moves with at least two legal plays; the
reference players included). CPU time of the process, not wall time, so that a machine
busy with other work does not inflate the figures. Run with ``OPENBLAS_NUM_THREADS=1
OMP_NUM_THREADS=1``, as the bot's worker processes think (bot.computer): a BLAS thread pool
roughly doubles the CPU of a decision (classic, median per move, on 2 cores: Difficile 179 ms
with the pool, 85 ms without; Medio 16.6 ms and 3.0 ms).

Duplicate dice: games come in pairs that use the same dice sequence (seeded per pair),
once with each player opening, so each player gets the other's rolls in the second game
and the luck of the dice largely cancels. The confidence interval (1.96 standard errors)
is computed over the pairs' means, which is what makes it honest. A run is reproducible
for given players, seed and number of games.

``--bearoff`` times a build of the bear-off database and gives its size on disk.

``--facile-loss N`` measures instead Facile's average equity loss per move in no-contact
positions, over the positions met in N games of Medio against itself: the loss is the
0-ply equity of the best play minus that of Facile's play, exact where both sides are home
(the bear-off database).

``--weights FILE`` makes the levels play with a checkpoint of the training instead of the
shipped networks; ``--b-weights FILE`` makes player B's levels play with another file on
B's own turns (a file against the shipped one: ``--a medio --b medio --weights NEW
--b-weights engine/ai/weights/classic.npz``). ``--jobs N`` shares the pairs out over N
processes: the same games and points as a serial run, in less wall time where cores are
free (CPU times per move are each process's own).

Run from the repository root, for example::

    python -m benchmarks.ai --variant classic --a difficile --b gnubg0 --games 400
    python -m benchmarks.ai --variant long --a medio --b random --games 200
    python -m benchmarks.ai --variant classic --facile-loss 100

Players: facile, medio, difficile, difficile1 (Difficile stopping at 1-ply), random,
pubeval (classic), gnubg0 (classic; needs the optional ``bench`` extra, PyPI
``gnubg-nn``), greedy (long), and medio-v1 / difficile-v1: the same levels with the
reference weights (the networks shipped before the race network,
``engine/ai/weights/reference/``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.gnubg_player import gnubg_player
from benchmarks.selfplay import cubeless_game
from engine import GameState, MatchConfig, Phase, Variant
from engine.ai import Level, bearoff, choose_play
from engine.ai.bearoff import all_home
from engine.ai.levels import ranked
from engine.ai.model import evaluating_file, evaluating_with, load, reference
from engine.ai.race import is_race
from engine.moves import Play
from training.reference import greedy_player, pubeval_player, random_player

Player = Callable[[GameState, random.Random], Play | None]


def _level(level: Level) -> Player:
    def play(state: GameState, rng: random.Random) -> Play | None:
        return choose_play(state, level, rng)

    return play


def _one_ply(state: GameState, rng: random.Random) -> Play | None:
    """Difficile without its 2-ply stage: what it played before that stage existed."""
    del rng
    scored = ranked(state, deep=True, max_plies=1)
    return scored[0][0] if scored else None


def _reference_level(level: Level) -> Player:
    def play(state: GameState, rng: random.Random) -> Play | None:
        with evaluating_with(state.variant, reference(state.variant)):
            return choose_play(state, level, rng)

    return play


PLAYERS: dict[str, Player] = {
    "facile": _level(Level.FACILE),
    "medio": _level(Level.MEDIO),
    "difficile": _level(Level.DIFFICILE),
    "difficile1": _one_ply,
    "medio-v1": _reference_level(Level.MEDIO),
    "difficile-v1": _reference_level(Level.DIFFICILE),
    "random": random_player,
    "pubeval": pubeval_player,
    "gnubg0": gnubg_player,
    "greedy": greedy_player,
}


@dataclass
class Tally:
    points: list[int] = field(default_factory=list)  # A's signed points per game
    big: int = 0  # games won or lost by gammon/backgammon/mars
    times: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})

    def pair_means(self) -> list[float]:
        """A's mean points over each duplicate pair (games 2k and 2k + 1)."""
        pts = self.points
        return [(pts[i] + pts[i + 1]) / 2 for i in range(0, len(pts) - 1, 2)]


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
        t0 = time.process_time()
        play = player(state, rng)
        elapsed = time.process_time() - t0
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


def _with_weights(player: Player, variant: Variant, weights: Path) -> Player:
    """``player`` evaluating with the networks of the file ``weights`` on its own turns."""
    evaluator = load(weights)

    def play(state: GameState, rng: random.Random) -> Play | None:
        with evaluating_with(variant, evaluator):
            return player(state, rng)

    return play


def _pairs(
    variant: Variant,
    a: str,
    b: str,
    pairs: range,
    seed: int,
    weights: Path | None,
    b_weights: Path | None = None,
) -> Tally:
    """Play the duplicate pairs numbered ``pairs`` (each one's dice seeded by its number)."""
    tally = Tally()
    b_player = PLAYERS[b] if b_weights is None else _with_weights(PLAYERS[b], variant, b_weights)
    with evaluating_file(variant, weights):
        for i in pairs:
            for a_first in (True, False):
                play_game(variant, PLAYERS[a], b_player, a_first, seed * 1_000_003 + i, tally)
    return tally


def run(
    variant: Variant,
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    weights: Path | None = None,
    jobs: int = 1,
    b_weights: Path | None = None,
) -> Tally:
    """``games`` rounded up to pairs of duplicate games (same dice, each player opening once).

    With ``jobs`` > 1 the pairs are shared out over that many processes; every pair's dice
    depend only on its number, so the games and their points are those of a serial run.
    """
    n = (games + 1) // 2
    if jobs <= 1:
        return _pairs(variant, a, b, range(n), seed, weights, b_weights)
    chunks = [range(k, n, jobs) for k in range(jobs)]
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(_pairs, variant, a, b, c, seed, weights, b_weights) for c in chunks]
        parts = [f.result() for f in futures]
    tally = Tally()
    games_of: dict[int, list[int]] = {}
    for chunk, part in zip(chunks, parts, strict=True):
        for j, i in enumerate(chunk):
            games_of[i] = part.points[2 * j : 2 * j + 2]
        tally.big += part.big
        for who in ("A", "B"):
            tally.times[who].extend(part.times[who])
    tally.points = [p for i in range(n) for p in games_of[i]]
    return tally


def _ms(values: list[float], fn: Callable[[list[float]], float]) -> str:
    return f"{fn(values) * 1000:8.1f}" if values else "       -"


def report(variant: Variant, a: str, b: str, tally: Tally, wall: float) -> str:
    pts = tally.points
    n = len(pts)
    mean = statistics.fmean(pts)
    pairs = tally.pair_means()
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.nan
    wins = sum(1 for p in pts if p > 0) / n
    big = tally.big / n
    ta, tb = tally.times["A"], tally.times["B"]
    return (
        f"| {variant.value:7} | {a:9} | {b:9} | {n:5d} | {mean:+.3f} ± {half:.3f} "
        f"| {wins:6.1%} | {big:6.1%} | {_ms(ta, statistics.median)} | {_ms(ta, _p95)} "
        f"| {_ms(ta, max)} | {_ms(tb, statistics.median)} | {_ms(tb, max)} | {wall:6.0f} |"
    )


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


HEADER = (
    "| variant | A         | B         | games | A points/game (95% CI) | A wins "
    "| big    | A med ms | A p95 ms | A max ms | B med ms | B max ms | wall s |\n"
    "|---------|-----------|-----------|-------|------------------------|--------"
    "|--------|----------|----------|----------|----------|----------|--------|"
)


@dataclass
class Losses:
    """Facile's equity loss per move, in no-contact positions and in bear-offs."""

    race: list[float] = field(default_factory=list)
    bearoff: list[float] = field(default_factory=list)


def facile_loss(variant: Variant, games: int, seed: int) -> Losses:
    """Facile's choice in every no-contact position of ``games`` Medio self-play games."""
    losses = Losses()
    for i in range(games):
        dice, rng = random.Random(seed * 1_000_003 + i), random.Random(seed ^ i)
        for state in cubeless_game(variant, dice, rng):
            if state.phase is not Phase.MOVE:
                continue
            mine, theirs = state.checkers[state.turn], state.checkers[state.turn.other]
            if is_race(variant, mine, theirs) and len(state.legal_plays()) > 1:
                scored = ranked(state, deep=False)
                chosen = choose_play(state, Level.FACILE, rng)
                assert chosen is not None
                loss = scored[0][1] - next(e for p, e in scored if p.key == chosen.key)
                losses.race.append(loss)
                if bool(all_home(np.array([mine, theirs])).all()):
                    losses.bearoff.append(loss)
    return losses


def loss_report(variant: Variant, losses: Losses) -> str:
    lines = [
        "| variant | positions     | moves | mean loss | max loss | moves losing > 0.02 |",
        "|---------|---------------|-------|-----------|----------|---------------------|",
    ]
    for name, values in (("no contact", losses.race), ("both home", losses.bearoff)):
        if not values:
            continue
        big = sum(1 for v in values if v > 0.02) / len(values)
        lines.append(
            f"| {variant.value:7} | {name:13} | {len(values):5d} | {statistics.fmean(values):9.4f} "
            f"| {max(values):8.4f} | {big:19.1%} |"
        )
    return "\n".join(lines)


def bearoff_report() -> str:
    """Build the bear-off database once more and report its cost and size."""
    t0 = time.process_time()
    built = bearoff.build()
    cpu = time.process_time() - t0
    path = bearoff.cache_dir() / "bench-bearoff.npz"
    bearoff._save(path, built)
    size = path.stat().st_size
    path.unlink()
    return (
        f"bear-off database: {built.off.shape[0]} positions, up to {built.off.shape[1] - 1} "
        f"rolls ({built.first.shape[1] - 1} to the first checker off), built in {cpu:.1f} s "
        f"of CPU, {size / 1e6:.1f} MB compressed"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Computer opponent: strength and speed.")
    ap.add_argument("--variant", choices=["classic", "long"], default="classic")
    ap.add_argument("--a", choices=sorted(PLAYERS), default="difficile")
    ap.add_argument("--b", choices=sorted(PLAYERS), default="random")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--weights", type=Path, default=None, help="weights file for the levels (e.g. a checkpoint)"
    )
    ap.add_argument(
        "--b-weights", type=Path, default=None, help="weights file for player B's own turns"
    )
    ap.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    ap.add_argument("--no-header", action="store_true")
    ap.add_argument("--facile-loss", type=int, metavar="GAMES", default=0)
    ap.add_argument("--bearoff", action="store_true", help="time the bear-off database build")
    args = ap.parse_args()
    variant = Variant(args.variant)
    if args.bearoff:
        print(bearoff_report())
        return
    if args.facile_loss:
        print(loss_report(variant, facile_loss(variant, args.facile_loss, args.seed)))
        return
    t0 = time.perf_counter()
    tally = run(
        variant,
        args.a,
        args.b,
        args.games,
        args.seed,
        weights=args.weights,
        jobs=args.jobs,
        b_weights=args.b_weights,
    )
    if not args.no_header:
        print(HEADER)
    print(report(variant, args.a, args.b, tally, time.perf_counter() - t0), flush=True)


if __name__ == "__main__":
    main()
