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

``--against-gnubg`` compares the analysis with GNU Backgammon 1.07's instead
(``benchmarks.analysis_gnubg``: decisions counted, error rates, worst decisions and
blunders, per game and side); it skips, saying why, where GNU Backgammon is absent and
nothing is cached. With ``--weights FILE`` the same stored games are analysed with a
training's candidate network, to measure it before it is shipped.

Run from the repository root, for example::

    python -m benchmarks.analysis --games 20
    python -m benchmarks.analysis --variant long --games 10
    python -m benchmarks.analysis --against-gnubg --games 24
    python -m benchmarks.analysis --against-gnubg --games 30 --details 40
    python -m benchmarks.analysis --against-gnubg --games 30 --weights runs/t6.npz
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.selfplay import recorded_game
from engine import GameRecord, MatchConfig, Variant
from engine.ai import Analysis, Level, analyse


def self_play(variant: Variant, seed: int) -> dict[str, Any]:
    """The record document of one game between two Facile players (as the bot keeps it)."""
    config = MatchConfig(variant, 5 if variant is Variant.CLASSIC else 1)
    return recorded_game(config, Level.FACILE, random.Random(seed)).to_doc()


def run(variant: Variant, games: int, seed: int) -> str:
    times: list[float] = []
    walls: list[float] = []
    per_decision: list[float] = []
    counted: list[int] = []
    tallies = [0, 0, 0]
    for g in range(games):
        doc = self_play(variant, seed + g)
        start, wall = time.process_time(), time.perf_counter()
        # What the bot's worker does: read the record, replay it, analyse its decisions.
        result: Analysis = analyse(GameRecord.from_doc(doc).decisions())
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
    ap.add_argument(
        "--against-gnubg",
        action="store_true",
        help="compare with GNU Backgammon 1.07's analysis (2-ply) of the same games",
    )
    ap.add_argument("--verbose", action="store_true", help="list the blunders not flagged")
    ap.add_argument("--gnubg-plies", type=int, default=2, help="GNU Backgammon's look-ahead")
    ap.add_argument(
        "--details",
        type=int,
        default=0,
        metavar="N",
        help="with --against-gnubg: list the N decisions where the two analyses differ most",
    )
    ap.add_argument(
        "--weights",
        type=Path,
        default=None,
        help="with --against-gnubg: analyse with this weights file (a training's candidate)",
    )
    args = ap.parse_args()
    if args.against_gnubg:
        from benchmarks import analysis_gnubg  # the reference side: parsing, cache

        analysis_gnubg.run(
            args.games, args.seed, args.verbose, args.gnubg_plies, args.details, args.weights
        )
        return
    variants = list(Variant) if args.variant == "both" else [Variant(args.variant)]
    print(
        "variant  games decisions median_s  worst_s ms/decision "
        "doubt.  err.  blund.  wall_med  (CPU s per game; counts per player)"
    )
    for variant in variants:
        print(run(variant, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
