"""The computer's plays judged by GNU Backgammon 2-ply on a fixed set of classic positions.

Why: a change to the search or the networks worth 0.03 points a game takes tens of
thousands of games against an opponent to see. The equity a level loses per move against
GNU Backgammon 2-ply's best play, on the same positions before and after the change, is a
paired measure that sees it in minutes. GNU Backgammon (PyPI ``gnubg-nn``, the optional
``bench`` extra) only judges here, as in the other benchmarks: nothing is trained on it.

1. ``build``: Medio plays cubeless games against itself (seeded dice); about one in seven
   positions where the roll leaves a choice is kept; GNU Backgammon 2-ply values every
   legal play, in the engine's order of the plays. The set is written to
   ``benchmarks/data/judge_gnubg.json`` (the side on roll's checkers, the roll, the
   values), so measuring needs no GNU Backgammon.
2. ``run``: the level plays each position; the loss is the best value minus the value of
   its play. The table gives the mean loss per move with its standard error and the CPU
   time per move; ``--save`` keeps the per-position losses and ``--against`` compares
   with a saved run, paired.

Run from the repository root::

    python -m benchmarks.judge build --positions 1200 --seed 77 --weights runs/run4.npz
    python -m benchmarks.judge run --level difficile --save runs/judge-before.npy
    python -m benchmarks.judge run --weights runs/classic.npz --against runs/judge-before.npy
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.gnubg_player import board, gnu_backgammon
from benchmarks.selfplay import cubeless_game
from engine import GameState, MatchConfig, Phase, Side, Variant
from engine.ai import Level, choose_play
from engine.ai.model import evaluating_file
from engine.ai.outcomes import equity
from engine.board import Checkers

DATA = Path(__file__).parent / "data" / "judge_gnubg.json"
#: The share of positions with a choice that the set keeps.
SHARE = 0.15


@dataclass(frozen=True, slots=True)
class Judged:
    """A position to play (the side on roll's checkers, its roll) and the 2-ply value of
    each legal play for the mover, in the order of ``GameState.legal_plays``."""

    mine: Checkers
    theirs: Checkers
    dice: tuple[int, int]
    values: tuple[float, ...]

    def state(self) -> GameState:
        """The position as a single cubeless game in the middle (both sides have moved)."""
        config = MatchConfig(Variant.CLASSIC, length=1, cube=False)
        checkers = (self.mine, self.theirs)
        before = GameState(config, checkers, Phase.ROLL, Side.WHITE, has_moved=(True, True))
        return before.roll(*self.dice)


def build(n: int, seed: int) -> list[Judged]:
    """``n`` positions of Medio's self-play, every play valued by GNU Backgammon 2-ply.

    The positions depend on the networks Medio plays with (``--weights``): the stored set
    was built with run 4's classic networks (``engine/ai/weights/TRAINING.md``).
    """
    rng, dice = random.Random(seed), random.Random(seed + 1000)
    states: list[GameState] = []
    while len(states) < n:
        for s in cubeless_game(Variant.CLASSIC, dice, rng):
            if s.phase is Phase.MOVE and len(s.legal_plays()) > 1 and dice.random() < SHARE:
                states.append(s)
    return judge(states[:n])


def judge(states: list[GameState]) -> list[Judged]:
    """Each position (a classic state with the roll to play) with the 2-ply value of every
    legal play for the mover, by GNU Backgammon."""
    gnubg = gnu_backgammon()
    judged = []
    for s in states:
        # GNU Backgammon values the position after the play for the opponent, on roll.
        theirs_on_roll = [gnubg.probabilities(board(p.theirs, p.mine), 2) for p in s.legal_plays()]
        values = tuple((-equity(Variant.CLASSIC, np.array(theirs_on_roll))).tolist())
        mine, theirs = s.checkers[s.turn], s.checkers[s.turn.other]
        assert s.dice is not None
        judged.append(Judged(mine, theirs, (s.dice[0], s.dice[1]), values))
    return judged


def save(judged: list[Judged], path: Path) -> None:
    rows = [
        {"mine": j.mine, "theirs": j.theirs, "dice": j.dice, "values": _rounded(j.values)}
        for j in judged
    ]
    path.write_text(json.dumps(rows, separators=(",", ":")) + "\n", encoding="utf-8")


def _rounded(values: tuple[float, ...]) -> list[float]:
    return [round(v, 5) for v in values]


def read(path: Path = DATA) -> list[Judged]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        Judged(tuple(r["mine"]), tuple(r["theirs"]), tuple(r["dice"]), tuple(r["values"]))
        for r in rows
    ]


def losses(judged: list[Judged], level: Level) -> tuple[np.ndarray, np.ndarray]:
    """Per position: the equity the level's play loses against the best, and its CPU ms."""
    rng = random.Random(0)
    lost, ms = [], []
    for j in judged:
        state = j.state()
        plays = state.legal_plays()
        if len(plays) != len(j.values):
            raise ValueError("the stored values do not match the engine's plays")
        start = time.process_time()
        play = choose_play(state, level, rng)
        ms.append(1000 * (time.process_time() - start))
        assert play is not None
        index = next(i for i, p in enumerate(plays) if p.key == play.key)
        lost.append(max(j.values) - j.values[index])
    return np.array(lost), np.array(ms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="judge new positions with GNU Backgammon 2-ply")
    make.add_argument("--positions", type=int, default=1200)
    make.add_argument("--seed", type=int, default=77)
    make.add_argument("--out", type=Path, default=DATA)
    make.add_argument("--weights", type=Path, help="the networks Medio plays with")
    run = sub.add_parser("run", help="measure a level's loss per move on the judged set")
    run.add_argument("--level", choices=[lv.value for lv in Level], default="difficile")
    run.add_argument("--data", type=Path, default=DATA)
    run.add_argument("--weights", type=Path, help="a weights file for the levels")
    run.add_argument("--save", type=Path, help="save the per-position losses (.npy)")
    run.add_argument("--against", type=Path, help="a saved run to compare with, paired")
    args = parser.parse_args(argv)
    if args.command == "build":
        with evaluating_file(Variant.CLASSIC, args.weights):
            save(build(args.positions, args.seed), args.out)
        return 0
    judged = read(args.data)
    level = Level(args.level)
    with evaluating_file(Variant.CLASSIC, args.weights):
        lost, ms = losses(judged, level)
    se = lost.std() / np.sqrt(len(lost))
    print(f"{level.value}: {len(lost)} positions, loss/move {lost.mean():.5f} ± {1.96 * se:.5f}")
    p95 = np.percentile(ms, 95)
    print(f"CPU ms per move: median {np.median(ms):.1f}, p95 {p95:.1f}, max {ms.max():.1f}")
    if args.save:
        np.save(args.save, lost)
    if args.against:
        diff = np.load(args.against) - lost
        half = 1.96 * diff.std() / np.sqrt(len(diff))
        changed = int((np.abs(diff) > 2e-5).sum())  # the stored values carry 5 decimals
        print(f"gain against {args.against}: {diff.mean():+.5f} ± {half:.5f} ({changed} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
