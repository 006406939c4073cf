"""Train the evaluation networks by self-play with TD(lambda), as TD-Gammon did.

Run from the repository root (one CPU core, deterministic for a given seed)::

    python -m engine.ai.train --variant classic --games 30000 --seed 1
    python -m engine.ai.train --variant long --games 20000 --seed 2

Each game is played greedily by the current network against itself (0-ply: every legal
play of the roll is scored in one vectorised pass). At the end of the game the forward view
of TD(lambda) is computed backwards over the positions of the game (the lambda-return of
each position mixes the next position's estimate with the final result) and the network
takes one gradient step of cross-entropy towards those returns. Weights are written to
``engine/ai/weights/<variant>.npz`` every ``--checkpoint`` games and at the end; progress
goes to stdout (the committed log is that output).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from engine.ai.arrays import Floats
from engine.ai.features import encode, input_size
from engine.ai.network import Network
from engine.ai.outcomes import N_OUTPUTS, equity, final, flip
from engine.board import OFF, start
from engine.movegen import TurnGenerator
from engine.types import Variant

WEIGHTS_DIR = Path(__file__).with_name("weights")


def self_play_game(
    net: Network, variant: Variant, rng: random.Random, lam: float
) -> tuple[Floats, Floats]:
    """Play one game; return the encoded positions (side on roll) and their TD targets."""
    mine, theirs = start(variant), start(variant)
    xs: list[Floats] = [encode(variant, [mine], [theirs])[0]]
    nexts: list[Floats] = []  # network output for each next position (its side on roll)
    rules = variant.rules
    ply = 0
    white_first: tuple[int, int] | None = None
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if ply == 0:
            white_first = (d1, d2)
        # The same first-turn head rule as the game (ply 1 is Black's first turn).
        dice, head = rules.turn_dice(d1, d2, ply < 2, ply == 1 and white_first == (5, 5))
        gen = TurnGenerator(variant, dice, head)
        plays = gen.plays(mine, theirs)
        if plays:
            on = np.array([p.theirs for p in plays])
            off = np.array([p.mine for p in plays])
            x = encode(variant, on, off)
            y = net.forward(x)
            best = int(np.argmax(equity(variant, flip(variant, y))))
            mine, theirs = plays[best].mine, plays[best].theirs
            x_next, y_next = x[best], y[best]
        else:
            x_next = encode(variant, [theirs], [mine])[0]
            y_next = net.forward(x_next[None, :])[0]
        ply += 1
        if mine[OFF] == 15:
            z = final(variant, mine, theirs)
            break
        xs.append(x_next)
        nexts.append(y_next)
        mine, theirs = theirs, mine
    # Backwards lambda-returns: target of xs[t] is from the view of its side on roll.
    targets = np.empty((len(xs), N_OUTPUTS[variant]), dtype=np.float32)
    g = z
    targets[-1] = g
    for t in range(len(xs) - 2, -1, -1):
        g = flip(variant, (1.0 - lam) * nexts[t] + lam * g)
        targets[t] = g
    return np.array(xs, dtype=np.float32), targets


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=["classic", "long"], required=True)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--lr-end", type=float, default=0.001)
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--lam-end", type=float, default=0.3)
    ap.add_argument("--checkpoint", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--init", type=Path, default=None, help="continue from these weights")
    args = ap.parse_args(argv)

    variant = Variant(args.variant)
    out = args.out or WEIGHTS_DIR / f"{variant.value}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    np.random.seed(args.seed)
    rng = random.Random(args.seed)
    net = Network.random(input_size(variant), args.hidden, N_OUTPUTS[variant], args.seed)
    if args.init is not None:
        with np.load(args.init) as data:
            net = Network(data["w1"], data["b1"], data["w2"], data["b2"])
    print(f"# {' '.join(sys.argv)}", flush=True)
    t0 = time.process_time()
    err_sum, plies = 0.0, 0
    for game in range(1, args.games + 1):
        frac = (game - 1) / max(1, args.games - 1)
        lr = args.lr + (args.lr_end - args.lr) * frac
        lam = args.lam + (args.lam_end - args.lam) * frac
        x, target = self_play_game(net, variant, rng, lam)
        err_sum += net.train_batch(x, target, lr)
        plies += len(x)
        if game % 500 == 0:
            cpu = time.process_time() - t0
            print(
                f"game {game:6d}  cpu {cpu:7.1f}s  plies/game {plies / 500:5.1f}"
                f"  mean|err| {err_sum / 500:.4f}  lr {lr:.4f}  lambda {lam:.2f}",
                flush=True,
            )
            err_sum, plies = 0.0, 0
        if game % args.checkpoint == 0 or game == args.games:
            save(net, out, variant, args, game)
    return 0


def save(net: Network, path: Path, variant: Variant, args: argparse.Namespace, games: int) -> None:
    meta = np.array(f"variant={variant.value} games={games} seed={args.seed} hidden={args.hidden}")
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **net.arrays(), meta=meta)
    tmp.replace(path)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
