"""Train the contact network towards its own one-ply look-ahead (search bootstrapping).

Why: TD self-play levelled off (the contact network gained nothing between 330,000 and
400,000 games), yet the same network looking one roll ahead judges positions clearly
better than it does alone. Teaching the network the values its one-ply search gives, on
the positions its own play reaches, moves the 0-ply estimate towards that better
judgement; every level gains, since every level ranks plays by the network, and Difficile's
look-ahead then starts from better leaves. Repeated, each round's network is the next
round's teacher.

Two steps, from the repository root (numpy held to one thread, as in training)::

    python -m training.distill collect --variant classic --games 6000 --seed 3 \\
        --out runs/distill-1.npz --jobs 2
    python -m training.distill fit --variant classic --data runs/distill-1.npz \\
        --out runs/classic-d1.npz --epochs 12

``collect`` plays greedy 0-ply self-play games with the teacher (``train.play_wave``, games
ended at the bear-off database), keeps their distinct contact positions past the first two
turns and values each by the teacher's one-ply look-ahead: the average over the 21 rolls
of the side on roll of its best play at 0-ply (the search's own ``Layer``, so passes and
the bear-off database are counted as the search counts them). ``fit`` trains the
teacher's contact network (optionally grown to more hidden units) on those values with
Adam and cross-entropy, reports the held-out error per epoch (the last twentieth of the
positions, whole games) and keeps the epoch that did best there; the race network is the
teacher's, unchanged. Both steps are deterministic for their arguments.

Two options aim a round at the positions the network judges worst, blitzes and
closeouts (classic): ``--select pressed`` keeps only the positions where a side holds four
or more points of its home board against one to four of the opponent's checkers on the
bar or in that board (``pressed``), so that many more games feed a data file of the same
size; ``--plies 2`` values each position two rolls ahead instead of one (the side on roll's
best play at 0-ply for each of its rolls, then the opponent's, then the network), about
twenty times the cost, affordable on such a subset. ``--seconds`` stops the valuing after
that long and keeps the positions valued so far (in game order), so that a round fits a
time budget. ``--plies 0`` keeps the teacher's own values: anchor rows, mixed into a
fine-tune aimed at a subset so that the network stays where it is on the rest, at the cost
of a self-play pass.

The network's own look-ahead cannot teach what the network gets wrong at every depth: it
likes loose blitzing hits and underrates the gammons of a checker left behind a strong
board, and its two-ply values say so too. ``--teacher rollout`` values each position by
``--rollout-games`` games played to the end from it instead (``training.rollouts``: both
sides greedy at 0-ply with the teacher, games ended at the bear-off database, all the games
of a chunk of positions in lockstep, independent dice drawn from the seed and the chunk's
number): the mean outcome of the games for the side on roll, in the layout of the network's
outputs, like the look-ahead's values. ``--select behind`` keeps the positions where a side
holds four or more home points against any of the other's checkers on the bar or in that
board, anchored or not (the pressed ones, and the holding games they are played from)::

    python -m training.distill collect --variant classic --games 4000 --seed 8 \\
        --select behind --teacher rollout --rollout-games 48 --seconds 1800 \\
        --out runs/behind-rollout.npz
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Literal

import numpy as np

from engine.ai.arrays import Floats, Probs, Reals, counts_of
from engine.ai.features import encode
from engine.ai.model import Evaluator, evaluate, evaluating_with, load, network
from engine.ai.network import Network, Weights
from engine.ai.outcomes import equity, flip
from engine.ai.search import Layer, ReplyRules
from engine.board import BAR
from engine.types import Variant
from training.rollouts import rollout_values
from training.train import Dice, grow, play_wave, save

#: Positions valued per task of the worker pool (one search layer each).
CHUNK = 64
#: Adam's moment decays and its guard against division by zero.
ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8

#: The arrays of a network, by name.
WEIGHT_NAMES: tuple[Literal["w1", "b1", "w2", "b2"], ...] = ("w1", "b1", "w2", "b2")

#: A pre-roll position: (the side on roll, the side waiting) as ``bytes(checkers)``.
Position = tuple[bytes, bytes]


def self_play_positions(
    variant: Variant, teacher: Evaluator, games: int, seed: int, wave: int = 32
) -> list[Position]:
    """The distinct contact positions of ``games`` greedy self-play games, in game order.

    The first two positions of a game (the opening, and the reply to the first roll) are
    left out: the rules of a first turn differ in long, and they are few and repeated.
    """
    seen: set[Position] = set()
    found: list[Position] = []
    for first in range(0, games, wave):
        n = min(wave, games - first)
        dice: list[Dice] = [random.Random(seed * 1_000_003 + first + i) for i in range(n)]
        for game in play_wave(teacher, variant, dice, exact=True):
            for board, race in zip(game.boards[2:], game.race[2:], strict=True):
                if not race and board not in seen:
                    seen.add(board)
                    found.append(board)
    return found


#: ``pressed``: the home points a side must hold, and the most opponent checkers caught.
PRESSED_POINTS = 4
PRESSED_MAX_CAUGHT = 3


def pressed(on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Classic: per row, whether either side holds ``PRESSED_POINTS`` or more points of its
    home board while one to ``PRESSED_MAX_CAUGHT`` of the other's checkers are on the bar or
    in that board, none of them on a point of their own (blitzes, closeouts, a checker or two
    left behind a strong board; an anchor makes it a holding game, which play reaches often).

    ``on`` and ``off`` are (n, 26) counts in each side's own numbering; a side's home
    points 1..6 are the other's 24..19.
    """

    def presses(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        held = (a[:, 1:7] >= 2).sum(axis=1)
        caught = b[:, 19:25].sum(axis=1) + b[:, BAR]
        anchored = (b[:, 19:25] >= 2).any(axis=1)
        ok = (caught >= 1) & (caught <= PRESSED_MAX_CAUGHT) & ~anchored
        result: np.ndarray = (held >= PRESSED_POINTS) & ok
        return result

    result: np.ndarray = presses(on, off) | presses(off, on)
    return result


def behind(on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Classic: per row, whether either side holds ``PRESSED_POINTS`` or more points of its
    home board while any of the other's checkers are on the bar or in that board, anchored
    or not: the ``pressed`` positions and the holding games that lead to them (whether to
    keep an anchor or break it and leave a checker behind the board)."""

    def holds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        held = (a[:, 1:7] >= 2).sum(axis=1)
        caught = b[:, 19:25].sum(axis=1) + b[:, BAR]
        result: np.ndarray = (held >= PRESSED_POINTS) & (caught >= 1)
        return result

    result: np.ndarray = holds(on, off) | holds(off, on)
    return result


#: The selections of ``collect``: the rows kept of (on roll, waiting) counts.
SELECTIONS = ("all", "pressed", "calm", "behind")


def zero_ply_values(variant: Variant, positions: list[Position]) -> Probs:
    """(n, K) the network's own outcome probabilities for the side on roll of each position:
    anchor rows that hold a fine-tune where the network already is."""
    return evaluate(
        variant, counts_of([p[0] for p in positions]), counts_of([p[1] for p in positions])
    )


def one_ply_values(variant: Variant, positions: list[Position]) -> Probs:
    """(n, K) one-ply outcome probabilities for the side on roll of each position."""
    layer = Layer.expand(
        variant, [(waiting, roller) for roller, waiting in positions], ReplyRules(variant)
    )
    assert layer is not None  # no limit
    _, values = layer.choose()
    return flip(variant, layer.settle(values))


def two_ply_values(variant: Variant, positions: list[Position]) -> Probs:
    """(n, K) two-ply outcome probabilities for the side on roll of each position: for each
    of its rolls its best play at 0-ply, valued by the opponent's one-ply look-ahead (the
    opponent's best reply at 0-ply for each of their rolls, then the network)."""
    rules = ReplyRules(variant)
    layer = Layer.expand(variant, [(waiting, roller) for roller, waiting in positions], rules)
    assert layer is not None  # no limit
    chosen, _ = layer.choose()
    deeper = Layer.expand(variant, [layer.waiting_to_roll(row) for row in chosen], rules)
    assert deeper is not None
    _, values = deeper.choose()
    # deeper.settle: for the side on roll of ``positions``; layer.settle wants the waiting side's
    return flip(variant, layer.settle(flip(variant, deeper.settle(values))))


def weights_or_shipped(variant: Variant, weights: Path | None) -> Evaluator:
    """The evaluator of a weights file, or the variant's shipped one."""
    return load(weights) if weights else network(variant)


#: Positions per chunk with the rollout teacher (each chunk's games run in lockstep).
ROLLOUT_CHUNK = 48


def rollout_seed(seed: int, chunk: int) -> int:
    """The dice seed of a chunk's rollouts: the same chunk rolls the same dice in any
    worker, whatever the number of workers."""
    return seed * 1_000_003 + chunk


@dataclass(frozen=True, slots=True)
class CollectSettings:
    """What ``collect`` keeps and how it values: every contact position, only the
    ``pressed`` ones, all but them (``calm``) or the ``behind`` ones; the look-ahead one or
    two plies deep (zero: the teacher's own values, anchor rows), or ``rollout_games``
    games rolled out from each (when set); a time limit on the valuing; one selected
    position in ``every`` kept, so that a time-limited valuing spreads over more games
    instead of the many close neighbours of a few (a holding game's turns differ little)."""

    select: Literal["all", "pressed", "calm", "behind"] = "all"
    plies: Literal[0, 1, 2] = 1
    seconds: float | None = None
    rollout_games: int | None = None
    every: int = 1


#: A pool worker's variant, teacher, settings and seed, set once when the worker starts.
_worker: dict[str, tuple[Variant, Evaluator, CollectSettings, int]] = {}


def _start_worker(variant: Variant, weights: Path | None, how: CollectSettings, seed: int) -> None:
    _worker["teacher"] = (variant, weights_or_shipped(variant, weights), how, seed)


def _value_chunk(job: tuple[int, list[Position]]) -> Probs:
    chunk, positions = job
    variant, teacher, how, seed = _worker["teacher"]
    with evaluating_with(variant, teacher):
        if how.rollout_games is not None:
            games = how.rollout_games
            return rollout_values(variant, positions, games, rollout_seed(seed, chunk))
        if how.plies == 2:
            return two_ply_values(variant, positions)
        if how.plies == 0:
            return zero_ply_values(variant, positions)
        return one_ply_values(variant, positions)


def collect(
    variant: Variant,
    weights: Path | None,
    games: int,
    seed: int,
    jobs: int,
    how: CollectSettings = CollectSettings(),
) -> tuple[list[Position], Probs]:
    """Self-play positions of the teacher and their look-ahead values (``jobs`` processes).

    With a time limit (counted from the start, self-play included), the positions valued
    when it runs out (a prefix, in game order).
    """
    t0 = time.perf_counter()
    teacher = weights_or_shipped(variant, weights)
    positions = self_play_positions(variant, teacher, games, seed)
    print(f"{len(positions)} positions from {games} games", flush=True)
    if how.select != "all":
        on, off = counts_of([p[0] for p in positions]), counts_of([p[1] for p in positions])
        keep = behind(on, off) if how.select == "behind" else pressed(on, off)
        if how.select == "calm":
            keep = ~keep
        positions = [p for p, k in zip(positions, keep, strict=True) if k]
        print(f"{len(positions)} of them {how.select}", flush=True)
    if how.every > 1:
        positions = positions[:: how.every]
        print(f"{len(positions)} kept, one in {how.every}", flush=True)
    size = CHUNK if how.rollout_games is None else ROLLOUT_CHUNK
    chunks = list(enumerate(positions[i : i + size] for i in range(0, len(positions), size)))
    values: list[Probs] = []
    t1 = time.perf_counter()
    slow = how.plies == 2 or how.rollout_games is not None
    with Pool(jobs, initializer=_start_worker, initargs=(variant, weights, how, seed)) as pool:
        for k, chunk_values in enumerate(pool.imap(_value_chunk, chunks), 1):
            values.append(chunk_values)
            done = min(k * size, len(positions))
            elapsed = time.perf_counter() - t1
            if k % 200 == 0 or k == len(chunks) or (slow and k % 10 == 0):
                print(
                    f"valued {done}/{len(positions)}  {done / elapsed:.0f} positions/s", flush=True
                )
            if how.seconds is not None and time.perf_counter() - t0 > how.seconds:
                print(f"time limit: {done} positions valued", flush=True)
                break
    if not values:
        return [], np.zeros((0, variant.rules.n_outcomes))
    valued = np.concatenate(values)
    return positions[: len(valued)], valued


class Adam:
    """Adam's update for the arrays of a network (its moments, kept between steps)."""

    def __init__(self, net: Network, lr: float) -> None:
        self.net = net
        self.lr = lr
        self.steps = 0
        arrays = net.arrays()
        self.m: dict[str, Reals] = {k: np.zeros_like(arrays[k]) for k in WEIGHT_NAMES}
        self.v: dict[str, Reals] = {k: np.zeros_like(arrays[k]) for k in WEIGHT_NAMES}

    def step(self, grads: Weights, rows: int) -> None:
        b1, b2 = ADAM_BETAS
        self.steps += 1
        scale = self.lr * np.sqrt(1 - b2**self.steps) / (1 - b1**self.steps)
        arrays = self.net.arrays()  # the network's own arrays, updated in place
        for key in WEIGHT_NAMES:
            g = grads[key] / rows
            self.m[key] = b1 * self.m[key] + (1 - b1) * g
            self.v[key] = b2 * self.v[key] + (1 - b2) * g * g
            arrays[key] -= (scale * self.m[key] / (np.sqrt(self.v[key]) + ADAM_EPS)).astype(
                np.float32
            )


def held_out_error(variant: Variant, net: Network, x: Floats, target: Probs) -> tuple[float, float]:
    """Mean cross-entropy per row and mean absolute equity error against ``target``."""
    y = net.forward(x).astype(np.float64)
    p = np.clip(y, 1e-7, 1 - 1e-7)
    ce = -(target * np.log(p) + (1 - target) * np.log(1 - p)).sum(axis=1).mean()
    eq = np.abs(equity(variant, y) - equity(variant, target)).mean()
    return float(ce), float(eq)


@dataclass(frozen=True, slots=True)
class FitSettings:
    """How ``fit`` trains: passes over the data, Adam's step, rows per step, shuffle seed."""

    epochs: int = 12
    lr: float = 0.0003
    batch: int = 128
    seed: int = 1


def fit(variant: Variant, start: Evaluator, x: Floats, target: Probs, how: FitSettings) -> Network:
    """The contact network of ``start`` trained on (x, target); the best held-out epoch."""
    cut = len(x) - len(x) // 20
    train_x, train_t = x[:cut], target[:cut].astype(np.float32)
    test_x, test_t = x[cut:], target[cut:]
    net = Network(**start.contact.arrays())
    best = Network(**net.arrays())
    ce, best_eq = held_out_error(variant, net, test_x, test_t)
    print(f"epoch  0  held-out CE {ce:.5f}  equity MAE {best_eq:.5f}", flush=True)
    adam = Adam(net, how.lr)
    rng = np.random.default_rng(how.seed)
    for epoch in range(1, how.epochs + 1):
        # cosine decay of the step over the epochs: the late epochs refine without noise
        adam.lr = how.lr * 0.5 * (1 + np.cos(np.pi * (epoch - 1) / how.epochs))
        order = rng.permutation(len(train_x))
        for i in range(0, len(order), how.batch):
            rows = order[i : i + how.batch]
            grads, _ = net.gradients(train_x[rows], train_t[rows])
            adam.step(grads, len(rows))
        ce, eq = held_out_error(variant, net, test_x, test_t)
        print(f"epoch {epoch:2d}  held-out CE {ce:.5f}  equity MAE {eq:.5f}", flush=True)
        if eq < best_eq:
            best_eq, best = eq, Network(**net.arrays())
    return best


def _read_data(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, Probs]:
    ons, offs, targets = [], [], []
    for path in paths:
        with np.load(path) as data:
            ons.append(data["on"].astype(np.int64))
            offs.append(data["off"].astype(np.int64))
            targets.append(data["target"])
    return np.concatenate(ons), np.concatenate(offs), np.concatenate(targets)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="self-play positions and their one-ply values")
    c.add_argument("--variant", choices=["classic", "long"], required=True)
    c.add_argument("--weights", type=Path, default=None, help="the teacher (default shipped)")
    c.add_argument("--games", type=int, default=6000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--select", choices=SELECTIONS, default="all")
    c.add_argument(
        "--plies", type=int, choices=[0, 1, 2], default=1, help="0: the teacher's own values"
    )
    c.add_argument(
        "--teacher",
        choices=["search", "rollout"],
        default="search",
        help="value by the look-ahead (--plies) or by games rolled out to the end",
    )
    c.add_argument("--rollout-games", type=int, default=48, help="games per position")
    c.add_argument(
        "--seconds", type=float, default=None, help="stop valuing this long after the start"
    )
    c.add_argument("--every", type=int, default=1, help="keep one selected position in EVERY")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="train the contact network on collected values")
    f.add_argument("--variant", choices=["classic", "long"], required=True)
    f.add_argument("--data", type=Path, nargs="+", required=True)
    f.add_argument("--weights", type=Path, default=None, help="start (default shipped)")
    f.add_argument("--hidden", type=int, default=None, help="grow to this many hidden units")
    f.add_argument("--epochs", type=int, default=12)
    f.add_argument("--lr", type=float, default=0.0003)
    f.add_argument("--batch", type=int, default=128)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--out", type=Path, required=True)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    variant = Variant(args.variant)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.command == "collect":
        if args.select != "all" and variant is not Variant.CLASSIC:
            raise SystemExit("--select is for classic (long has no hitting)")
        if args.every < 1:
            raise SystemExit("--every is a count of positions: 1 or more")
        games = args.rollout_games if args.teacher == "rollout" else None
        wanted = CollectSettings(args.select, args.plies, args.seconds, games, args.every)
        positions, values = collect(variant, args.weights, args.games, args.seed, args.jobs, wanted)
        np.savez_compressed(
            args.out,
            on=counts_of([p[0] for p in positions]).astype(np.uint8),
            off=counts_of([p[1] for p in positions]).astype(np.uint8),
            target=values.astype(np.float32),
        )
        return 0
    start = weights_or_shipped(variant, args.weights)
    if args.hidden is not None:
        start = grow(start, variant, args.hidden, args.seed)
    on, off, target = _read_data(args.data)
    x = encode(variant, on, off, start.inputs)
    how = FitSettings(args.epochs, args.lr, args.batch, args.seed)
    net = fit(variant, start, x, target, how)
    settings: dict[str, object] = {
        "variant": variant.value,
        "distilled_from": args.weights.name if args.weights else "shipped",
        "data": [p.name for p in args.data],
        "positions": len(x),
        "hidden": int(net.w1.shape[1]),
        "epochs": args.epochs,
        "lr": args.lr,
        "batch": args.batch,
        "seed": args.seed,
    }
    save(Evaluator(start.inputs, net, start.race), args.out, settings, 0)
    print(json.dumps(settings), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
