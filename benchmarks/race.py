"""How well the networks judge races: winning and gammon chances against GNU Backgammon's.

Why: in a race the cube turns on a few points of winning chance, so a race network that
is a few points off doubles and takes wrongly; the bear-off database is exact only once
both sides are home. This script samples no-contact positions that are not yet both home
(the race network's domain) from Medio self-play games, asks GNU Backgammon's 0-ply
evaluation for the side on roll (its race network, very close to rollouts there) and
compares the project's 0-ply chances with it: mean absolute error and bias, in points of
percentage, for winning and for winning a gammon, and the worst winning-chance error.

GNU Backgammon comes from the optional ``bench`` extra (PyPI ``gnubg-nn``); it is only a
yardstick here, never a source of training targets.

Run from the repository root, for example::

    python -m benchmarks.race --positions 300
    python -m benchmarks.race --weights runs/classic.npz engine/ai/weights/reference/classic.npz
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np

from benchmarks.gnubg_player import board, gnu_backgammon
from benchmarks.selfplay import cubeless_game
from engine import Phase, Variant
from engine.ai.bearoff import all_home
from engine.ai.model import evaluating_with, load
from engine.ai.race import is_race
from engine.ai.search import pre_roll
from engine.board import Checkers

CLASSIC = Variant.CLASSIC
#: At most this many positions from one game, so that many games are represented.
PER_GAME = 3


def _races_of_game(seed: int) -> list[tuple[Checkers, Checkers]]:
    """Pre-roll race positions (not both home) of one Medio self-play game."""
    found: list[tuple[Checkers, Checkers]] = []
    for state in cubeless_game(CLASSIC, random.Random(seed), random.Random(seed ^ 0x5EED)):
        on, off = state.checkers[state.turn], state.checkers[state.turn.other]
        race = state.phase is Phase.ROLL and is_race(CLASSIC, on, off)
        if race and not all_home(np.array([on, off])).all():
            found.append((on, off))
    return found


def sample_races(count: int, seed: int) -> list[tuple[Checkers, Checkers]]:
    """``count`` race positions from as many self-play games as it takes."""
    out: list[tuple[Checkers, Checkers]] = []
    game = 0
    while len(out) < count:
        found = _races_of_game(seed * 1_000_003 + game)
        game += 1
        if found:
            out.extend(random.Random(game).sample(found, min(PER_GAME, len(found))))
    return out[:count]


def reference_chances(positions: list[tuple[Checkers, Checkers]]) -> np.ndarray:
    """GNU Backgammon's 0-ply outcome probabilities for the side on roll."""
    gnubg = gnu_backgammon()
    return np.array([gnubg.probabilities(board(on, off), 0) for on, off in positions])


def our_chances(positions: list[tuple[Checkers, Checkers]]) -> np.ndarray:
    return np.array([pre_roll(CLASSIC, on, off) for on, off in positions])


def line(name: str, ours: np.ndarray, ref: np.ndarray) -> str:
    win, gammon = 100 * (ours[:, 0] - ref[:, 0]), 100 * (ours[:, 1] - ref[:, 1])
    return (
        f"| {name:40} | {np.abs(win).mean():5.2f} | {win.mean():+6.2f} | {np.abs(win).max():5.1f} "
        f"| {np.abs(gammon).mean():5.2f} | {gammon.mean():+6.2f} |"
    )


HEADER = (
    "| weights                                  | win MAE | bias | worst "
    "| gammon MAE | bias |\n"
    "|------------------------------------------|---------|------|-------|------------|------|"
)


def main() -> None:
    ap = argparse.ArgumentParser(description="Race chances against GNU Backgammon's.")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", type=Path, nargs="*", default=[], help="other weights files")
    args = ap.parse_args()
    positions = sample_races(args.positions, args.seed)
    ref = reference_chances(positions)
    print(f"{len(positions)} race positions (not both home), points of percentage")
    print(HEADER)
    print(line("shipped", our_chances(positions), ref))
    for path in args.weights:
        with evaluating_with(CLASSIC, load(path)):
            print(line(str(path), our_chances(positions), ref))


if __name__ == "__main__":
    main()
