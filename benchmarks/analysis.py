"""Time of the post-game analysis (``engine.ai.analyse``) per game.

Why: /analisi promises an answer within seconds, and says "analisi in corso…" past one
second; this measures what a whole game costs in a worker, for both variants. Games are
self-play between two Facile players (they make the mistakes an analysis has to find) with
the cube in play in classic (a 5-point match, so doubles, takes and drops are analysed
too); dice come from a generator seeded per game, so a run is reproducible.

Prints, per variant: games, decisions per game (median), the analysis time per game
(median and worst) and per decision (median), and how many doubtful plays, errors and
blunders the games had per player on average. Times are CPU seconds of this process
(``time.process_time``: what a worker spends, independent of other load on the host), and
the median wall-clock time per game for comparison.

Run from the repository root, for example::

    python -m benchmarks.analysis --games 20
    python -m benchmarks.analysis --variant long --games 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from engine import GameState, MatchConfig, Phase, Play, Variant
from engine.ai import Analysis, Level, accept_double, analyse, choose_play, cube_decision


@dataclass(frozen=True)
class Choice:
    """One decision of a game: the state and what the player chose."""

    state: GameState
    chosen: Play | bool


def self_play(variant: Variant, seed: int) -> list[Choice]:
    """The decisions of one game between two Facile players."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(variant, 5 if variant is Variant.CLASSIC else 1))
    choices: list[Choice] = []
    while not state.is_over:
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            if state.cube_available:
                double = cube_decision(state, Level.FACILE)
                choices.append(Choice(state, double))
                if double:
                    state = state.double()
                    continue
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.DOUBLED:
            take = accept_double(state, Level.FACILE)
            choices.append(Choice(state, take))
            state = state.take() if take else state.drop()
        else:
            play = choose_play(state, Level.FACILE, rng)
            if play is None:
                state = state.confirm()
                continue
            choices.append(Choice(state, play))
            state = state.play(play)
    return choices


def run(variant: Variant, games: int, seed: int) -> str:
    times: list[float] = []
    walls: list[float] = []
    per_decision: list[float] = []
    counted: list[int] = []
    tallies = [0, 0, 0]
    for g in range(games):
        choices = self_play(variant, seed + g)
        start, wall = time.process_time(), time.perf_counter()
        result: Analysis = analyse(choices)
        elapsed = time.process_time() - start
        walls.append(time.perf_counter() - wall)
        decisions = sum(p.decisions for p in result.players)
        times.append(elapsed)
        counted.append(decisions)
        per_decision.append(elapsed / max(1, decisions))
        for p in result.players:
            tallies[0] += p.doubtful
            tallies[1] += p.errors
            tallies[2] += p.blunders
    players = 2 * games
    return (
        f"{variant.value:8} {games:5d} {statistics.median(counted):9.0f} "
        f"{statistics.median(times):9.2f} {max(times):8.2f} "
        f"{1000 * statistics.median(per_decision):10.1f} "
        f"{tallies[0] / players:6.1f} {tallies[1] / players:6.1f} {tallies[2] / players:6.1f} "
        f"{statistics.median(walls):9.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Post-game analysis: seconds per game.")
    ap.add_argument("--variant", choices=["classic", "long", "both"], default="both")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    variants = list(Variant) if args.variant == "both" else [Variant(args.variant)]
    print(
        "variant  games decisions median_s  worst_s ms/decision "
        "doubt.  err.  blund.  wall_med  (CPU s per game; counts per player)"
    )
    for variant in variants:
        print(run(variant, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
