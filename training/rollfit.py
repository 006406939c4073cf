"""Fit a reduced set of rolls that stands for all 21 in the deepest layer of the search.

Why: Difficile's two-ply look-ahead spends nearly all its time in the last layer, where
each position reached after the opponent's reply is valued by my best play for each of
my 21 rolls. GNU Backgammon's published "reduced" evaluations value that layer with a
fraction of the rolls instead; this module finds such a set for our own evaluation: a
few rolls and weights whose weighted average of "my best 0-ply play for this roll" comes
closest to the full 21-roll average.

The positions are the pre-roll positions of Medio's self-play; for each one the value of
every roll is computed by the search's own layer (``search.Layer``, one roll at a time),
so passes and games ending on the roll are counted as the search counts them. The rolls
are chosen greedily (each step adds the roll that lowers the fitting error most), then
improved by single swaps while any helps; the weights are least squares with the
constraint that they sum to 36 (a constant position value stays the same). The error is
reported on a third of the positions kept out of the fit::

    python -m training.rollfit --variant classic --positions 6000 --rolls 11 --seed 5

prints the roll set as the ``reduced_rolls`` entry of the variant's search settings
(``engine/ai/weights/<variant>-search.json``, read by ``engine.ai.tuning``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from engine.ai.arrays import Probs, Reals
from engine.ai.levels import Level, choose_play
from engine.ai.model import evaluating_file
from engine.ai.outcomes import equity
from engine.ai.search import ROLLS, Layer, ReplyRules
from engine.game import GameState, MatchConfig, Phase
from engine.types import Variant

#: A pre-roll position: (the side waiting, the side about to roll) as ``bytes(checkers)``.
Position = tuple[bytes, bytes]


def self_play_positions(variant: Variant, n: int, seed: int, share: float = 0.3) -> list[Position]:
    """About ``share`` of the pre-roll positions of Medio's self-play, until ``n``."""
    rng, dice = random.Random(seed), random.Random(seed + 1)
    found: list[Position] = []
    while len(found) < n:
        s = GameState.new_match(MatchConfig(variant, length=1, cube=False))
        while s.phase is Phase.OPENING:
            s = s.roll_opening(dice.randint(1, 6), dice.randint(1, 6))
        while not s.is_over and len(found) < n:
            if s.phase is Phase.ROLL:
                if dice.random() < share:
                    found.append((bytes(s.checkers[s.turn.other]), bytes(s.checkers[s.turn])))
                s = s.roll(dice.randint(1, 6), dice.randint(1, 6))
                continue
            play = choose_play(s, Level.MEDIO, rng)
            s = s.confirm() if play is None else s.play(play)
    return found


def roll_values(variant: Variant, positions: list[Position]) -> Reals:
    """(n, 21) cubeless equity for the waiting side after the roller's best 0-ply play,
    per roll (in the order of ``search.ROLLS``)."""
    rules = ReplyRules(variant)
    values = np.zeros((len(positions), len(ROLLS)))
    for r, (d1, d2, _) in enumerate(ROLLS):
        layer = Layer.expand(variant, positions, rules, rolls=((d1, d2, 36.0),))
        assert layer is not None  # no limit
        _, chosen = layer.choose()
        probs: Probs = layer.settle(chosen)
        values[:, r] = equity(variant, probs)
    return values


def full_average(values: Reals) -> Reals:
    """Per row, the average of the 21 roll columns with their weights."""
    average: Reals = values @ np.array([w for _, _, w in ROLLS]) / 36.0
    return average


def _weights(values: Reals, target: Reals, subset: list[int]) -> Reals:
    """Least-squares weights (summing to one) of the subset's columns for the target."""
    a = values[:, subset]
    k = len(subset)
    kkt = np.zeros((k + 1, k + 1))
    kkt[:k, :k] = 2.0 * a.T @ a
    kkt[:k, k] = kkt[k, :k] = 1.0
    rhs = np.concatenate([2.0 * a.T @ target, [1.0]])
    # lstsq: two rolls of equal values (a singular system) still get weights
    w: Reals = np.linalg.lstsq(kkt, rhs, rcond=None)[0][:k]
    return w


def _error(values: Reals, target: Reals, subset: list[int], w: Reals) -> float:
    return float(np.sqrt(np.mean((values[:, subset] @ w - target) ** 2)))


def fit(values: Reals, size: int) -> tuple[list[int], Reals]:
    """The ``size`` roll indices and their weights (summing to one) that best stand for
    the full average of ``values`` (greedy choice, then single swaps)."""
    full = full_average(values)

    def cost(subset: list[int]) -> float:
        return _error(values, full, subset, _weights(values, full, subset))

    subset: list[int] = []
    for _ in range(size):
        rest = [r for r in range(len(ROLLS)) if r not in subset]
        subset.append(min(rest, key=lambda r: cost([*subset, r])))
    best = cost(subset)
    improved = True
    while improved:
        improved = False
        for i in range(size):
            for r in range(len(ROLLS)):
                if r in subset:
                    continue
                trial = subset.copy()
                trial[i] = r
                if (c := cost(trial)) < best - 1e-9:
                    subset, best, improved = trial, c, True
    order = sorted(subset)
    return order, _weights(values, full, order)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="classic")
    parser.add_argument("--positions", type=int, default=6000)
    parser.add_argument("--rolls", type=int, default=11)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--weights", type=Path, help="the networks to fit to (default shipped)")
    args = parser.parse_args(argv)
    variant = Variant(args.variant)
    with evaluating_file(variant, args.weights):
        positions = self_play_positions(variant, args.positions, args.seed)
        values = roll_values(variant, positions)
    cut = len(values) * 2 // 3
    subset, w = fit(values[:cut], args.rolls)
    held = values[cut:]
    full = full_average(held)
    print(f"# held-out RMSE {_error(held, full, subset, w):.4f} (spread {full.std():.3f})")
    pairs = zip(subset, w, strict=True)
    rolls = [[ROLLS[r][0], ROLLS[r][1], round(36 * float(x), 2)] for r, x in pairs]
    print(f'"reduced_rolls": {json.dumps(rolls)}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
