"""Train the evaluation networks by self-play with TD(lambda), as TD-Gammon did.

Run from the repository root (one CPU core, deterministic for a given seed)::

    python -m training.train --variant classic --games 100000 --seed 11 \\
        --grow-from engine/ai/weights/reference/classic.npz --out /tmp/classic.npz
    python -m training.train --variant classic --games 200000 --out /tmp/classic.npz --resume

Each game is played greedily by the current networks against themselves (0-ply): the
contact network scores positions where the sides can still meet, the race network the
others. Games are played in waves of ``--wave`` games in lockstep: at every step each
unfinished game of the wave generates its legal plays and all of them, over all games, are
encoded and evaluated in one numpy pass, which is what makes Python self-play affordable.
At the end of the wave the forward view of TD(lambda) is computed backwards over each game
(the lambda-return of a position mixes the next position's estimate with the final
result) and each network takes one gradient step of cross-entropy per game towards those
returns, over the game's positions of its kind, in the order of the games.

The weights file is also the checkpoint: it is written atomically at the end of a wave
once ``--checkpoint`` seconds have passed, and at the end; it records how many games it
has seen and the settings, and ``--resume`` continues from it. Every game's dice come from
its own generator (seeded by ``--seed`` and the game's number) and the step size depends
only on how many games the run has seen, so a run interrupted and resumed gives the same
weights as an uninterrupted one. Progress goes to stdout (the committed logs are that
output).

Two refinements for longer runs. ``--lr-end`` with ``--decay-games`` lowers the step size
geometrically from ``--lr`` to ``--lr-end`` over that many games (then holds it): a fixed
step levels off where its noise matches the gains, and a smaller one then refines.
``--exact-bearoff`` ends a game as soon as both sides have every checker home and takes the
bear-off database's exact outcome as its result, so the race network learns from exact
values at its far end instead of from the noise of the dice (and plays inside the database
are chosen exactly).

``--race-starts`` trains the race network alone on its own domain: every game starts from
a random no-contact position (each side's checkers spread at random over its first points,
a few sometimes already off) instead of the opening, and is played to the end (to the
database with ``--exact-bearoff``). Self-play from the opening reaches only the races its
own play produces; smooth bear-ins and long races are rare there, and a race network
trained on those alone misjudges them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from engine.ai import bearoff
from engine.ai.arrays import Counts, Flags, Floats, Probs, counts_of, counts_to_roll, sides_of
from engine.ai.features import LATEST, encode, input_size
from engine.ai.model import WEIGHTS_DIR, Evaluator, load
from engine.ai.network import Network
from engine.ai.outcomes import N_OUTPUTS, equity, final, flip
from engine.ai.race import no_contact
from engine.board import OFF, start
from engine.movegen import TurnGenerator
from engine.types import Variant


class Dice(Protocol):
    """What a game needs from its random generator (``random.Random`` in training)."""

    def randint(self, a: int, b: int) -> int: ...


#: Race starts: the range of the rearmost point a side spreads its checkers up to. The
#: no-contact test keeps only real races (classic rears adding up to at most 24, long
#: rears of at most 12). A wider range (4 to 22, more gammonish races) measured no better.
_RACE_REAR = (7, 17)


def race_start(variant: Variant, rng: random.Random) -> tuple[bytes, bytes]:
    """A random no-contact position, not yet a bear-off on both sides (mover first).

    Each side picks a rearmost point and spreads its 15 checkers over its points up to it
    with random weights (a flat Dirichlet), so smooth and lumpy shapes both occur; one
    start in four has a few checkers borne off already.
    """
    low, high = _RACE_REAR
    while True:
        sides = []
        for _ in range(2):
            rear = rng.randint(low, high)
            weights = [rng.gammavariate(1.0, 1.0) for _ in range(rear)]
            counts = [0] * 26
            for point in rng.choices(range(1, rear + 1), weights=weights, k=15):
                counts[point] += 1
            if rng.random() < 0.25:
                for _ in range(rng.randint(1, 6)):
                    lowest = next(p for p in range(1, 26) if counts[p])
                    counts[lowest] -= 1
                    counts[OFF] += 1
            sides.append(counts)
        mine, theirs = np.array([sides[0]]), np.array([sides[1]])
        home = bool(bearoff.all_home(mine)[0] and bearoff.all_home(theirs)[0])
        if not home and bool(no_contact(variant, mine, theirs)[0]):
            return bytes(sides[0]), bytes(sides[1])


@dataclass
class _Game:
    """One self-play game in progress; positions are stored from the side on roll."""

    dice: Dice
    mine: bytes
    theirs: bytes
    ply: int = 0
    white_first: tuple[int, int] | None = None
    xs: list[Floats] = field(default_factory=list)
    race: list[bool] = field(default_factory=list)
    boards: list[tuple[bytes, bytes]] = field(default_factory=list)  # (on roll, waiting) per x
    nexts: list[Floats] = field(default_factory=list)  # output for each next position
    result: Probs | None = None  # final outcome for the side that moved last

    def roll(self, variant: Variant) -> TurnGenerator:
        d1, d2 = self.dice.randint(1, 6), self.dice.randint(1, 6)
        if self.ply == 0:
            self.white_first = (d1, d2)
        # The same first-turn head rule as the game (ply 1 is Black's first turn).
        after_five_five = self.ply == 1 and self.white_first == (5, 5)
        dice, head = variant.rules.turn_dice(d1, d2, self.ply < 2, after_five_five)
        return TurnGenerator(variant, dice, head)


def _forward(
    evaluator: Evaluator, variant: Variant, on: Counts, off: Counts, exact: bool = False
) -> tuple[Floats, Floats, Flags, Flags]:
    """Inputs, outputs, race flags and (with ``exact``) both-sides-home flags per row.

    Rows where both sides are home take the database's exact outcome instead of the
    network's estimate when ``exact`` is set.
    """
    x = encode(variant, on, off, evaluator.inputs)
    race = evaluator.races(variant, on, off)
    y = evaluator.forward(x, race)
    home = np.zeros(len(x), dtype=bool)
    if exact:
        home = bearoff.exact_where_home(variant, on, off, y)
    return x, y, race, home


def play_wave(
    evaluator: Evaluator,
    variant: Variant,
    dice: list[Dice],
    exact: bool = False,
    starts: list[tuple[bytes, bytes]] | None = None,
) -> list[_Game]:
    """Play one game per dice generator in lockstep, greedily at 0-ply; return them.

    With ``exact`` a game ends when both sides are home, its result the database's
    exact outcome probabilities for the side that moved last. ``starts`` (mover's and
    opponent's checkers per game) replaces the opening position; such games are past
    their first turns.
    """
    if starts is None:
        first = bytes(start(variant))
        games = [_Game(d, first, first) for d in dice]
    else:
        games = [_Game(d, m, t, ply=2) for d, (m, t) in zip(dice, starts, strict=True)]
    ons = counts_of([g.mine for g in games])
    offs = counts_of([g.theirs for g in games])
    x0, _, race0, _ = _forward(evaluator, variant, ons, offs)
    for k, g in enumerate(games):
        g.xs.append(x0[k])
        g.race.append(bool(race0[k]))
        g.boards.append((g.mine, g.theirs))
    active = list(games)
    while active:
        rows: list[bytes] = []  # bytes(mover) + bytes(opponent) after each play
        bounds = [0]
        for g in active:
            results = g.roll(variant).packed_results(tuple(g.mine), tuple(g.theirs))
            if not results:  # no legal move: the position passes to the opponent as it is
                results = [g.mine + g.theirs]
            rows.extend(results)
            bounds.append(len(rows))
        on, off = counts_to_roll(rows)
        x, y, race, home = _forward(evaluator, variant, on, off, exact)
        mover_eq = equity(variant, flip(variant, y.astype(np.float64)))
        done = off[:, OFF] == 15
        mover_eq[done] = np.inf  # bearing the last checker off wins at once
        still: list[_Game] = []
        for k, g in enumerate(active):
            a, b = bounds[k], bounds[k + 1]
            best = a + int(np.argmax(mover_eq[a:b]))
            g.ply += 1
            if done[best]:
                g.result = final(variant, tuple(off[best]), tuple(on[best]))
                continue
            mover, other = sides_of(rows[best])
            if home[best]:  # both sides home: the database knows the outcome
                g.mine, g.theirs = other, mover
                g.result = flip(variant, y[best].astype(np.float64)).astype(np.float32)
                continue
            g.xs.append(x[best])
            g.race.append(bool(race[best]))
            g.boards.append((other, mover))
            g.nexts.append(y[best])
            g.mine, g.theirs = other, mover  # the opponent is on roll
            still.append(g)
        active = still
    return games


def targets(variant: Variant, game: _Game, lam: float) -> Floats:
    """Backwards lambda-returns: the target of each stored position, from its side on roll."""
    assert game.result is not None
    out = np.empty((len(game.xs), N_OUTPUTS[variant]), dtype=np.float32)
    g = game.result
    out[-1] = g
    for t in range(len(game.xs) - 2, -1, -1):
        g = flip(variant, (1.0 - lam) * game.nexts[t] + lam * g)
        out[t] = g
    return out


def learn(evaluator: Evaluator, variant: Variant, game: _Game, lam: float, lr: float) -> float:
    """One gradient step per network over the game's positions; mean |error| of the win."""
    x = np.array(game.xs, dtype=np.float32)
    target = targets(variant, game, lam)
    race = np.array(game.race, dtype=bool)
    err = 0.0
    if (~race).any():
        err += evaluator.contact.train_batch(x[~race], target[~race], lr) * (~race).sum()
    if evaluator.race is not None and race.any():
        err += evaluator.race.train_batch(x[race], target[race], lr) * race.sum()
    return err / len(x)


def grow(old: Evaluator, variant: Variant, hidden: int, seed: int) -> Evaluator:
    """Contact and race networks of the latest inputs that compute what ``old`` computes.

    The old network's inputs (any earlier version) are a prefix of the new ones and its
    hidden units are kept;
    new inputs enter the old units with weight zero, and new hidden units start with
    random input weights and zero output weights. Training then starts from the old
    network's strength instead of from nothing.
    """
    rng = np.random.default_rng(seed)
    n_in = input_size(variant, LATEST)
    nets = []
    for src in (old.contact, old.race or old.contact):
        old_in, old_hidden = src.w1.shape
        if old_hidden > hidden:
            raise ValueError(f"cannot grow {old_hidden} hidden units into {hidden}")
        w1 = np.zeros((n_in, hidden), dtype=np.float32)
        w1[:old_in, :old_hidden] = src.w1
        w1[:, old_hidden:] = rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, hidden - old_hidden))
        b1 = np.zeros(hidden, dtype=np.float32)
        b1[:old_hidden] = src.b1
        w2 = np.zeros((hidden, src.n_outputs), dtype=np.float32)
        w2[:old_hidden] = src.w2
        nets.append(Network(w1, b1, w2, src.b2.copy()))
    return Evaluator(LATEST, nets[0], nets[1])


def fresh(variant: Variant, hidden: int, seed: int) -> Evaluator:
    n_in, n_out = input_size(variant, LATEST), N_OUTPUTS[variant]
    return Evaluator(
        LATEST,
        Network.random(n_in, hidden, n_out, seed),
        Network.random(n_in, hidden, n_out, seed + 1),
    )


def save(evaluator: Evaluator, path: Path, settings: dict[str, object], games: int) -> None:
    """Write the weights (and how they were made) atomically: the file is the checkpoint."""
    c = evaluator.contact
    arrays: dict[str, Floats] = {"w1": c.w1, "b1": c.b1, "w2": c.w2, "b2": c.b2}
    if evaluator.race is not None:
        r = evaluator.race
        arrays.update({"race_w1": r.w1, "race_b1": r.b1, "race_w2": r.w2, "race_b2": r.b2})
    meta = json.dumps({**settings, "games": games}, sort_keys=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    extra = {"inputs": np.array(evaluator.inputs), "meta": np.array(meta)}
    np.savez_compressed(tmp, allow_pickle=False, **arrays, **extra)
    tmp.replace(path)


def step_size(lr: float, lr_end: float | None, decay_games: int, done: int) -> float:
    """The step size after ``done`` games: geometric from ``lr`` to ``lr_end``, then flat."""
    if lr_end is None or decay_games <= 0:
        return lr
    t = min(1.0, done / decay_games)
    return float(lr * (lr_end / lr) ** t)


def saved_games(path: Path) -> tuple[int, dict[str, object]]:
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
    games = int(meta.pop("games"))
    return games, meta


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", choices=["classic", "long"], required=True)
    ap.add_argument("--games", type=int, default=20000, help="train until this many games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--lr-end", type=float, default=None, help="step size after the decay")
    ap.add_argument("--decay-games", type=int, default=0, help="games over which lr decays")
    ap.add_argument(
        "--exact-bearoff", action="store_true", help="end games at the bear-off database"
    )
    ap.add_argument(
        "--race-starts", action="store_true", help="start from random races (race network)"
    )
    ap.add_argument("--lam", type=float, default=0.2)
    ap.add_argument("--wave", type=int, default=32, help="games played in lockstep")
    ap.add_argument("--checkpoint", type=float, default=180.0, help="seconds between saves")
    ap.add_argument("--log-every", type=int, default=1024, help="games between log lines")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--grow-from", type=Path, default=None, help="start from these weights")
    ap.add_argument("--resume", action="store_true", help="continue from --out")
    return ap


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    variant = Variant(args.variant)
    out: Path = args.out or WEIGHTS_DIR / f"{variant.value}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    settings: dict[str, object] = {
        "variant": variant.value,
        "seed": args.seed,
        "hidden": args.hidden,
        "lr": args.lr,
        "lam": args.lam,
        "wave": args.wave,
        "grow_from": args.grow_from.name if args.grow_from else None,
    }
    if args.lr_end is not None:
        settings.update({"lr_end": args.lr_end, "decay_games": args.decay_games})
    if args.exact_bearoff:
        settings["exact_bearoff"] = True
    if args.race_starts:
        settings["race_starts"] = True
    done = 0
    if args.resume:
        done, before = saved_games(out)
        if before != settings:
            print(f"cannot resume: {out} was made with {before}", file=sys.stderr)
            return 2
        evaluator = load(out)
    elif args.grow_from is not None:
        evaluator = grow(load(args.grow_from), variant, args.hidden, args.seed)
    else:
        evaluator = fresh(variant, args.hidden, args.seed)
    print(f"# {' '.join(['python -m training.train', *argv])}", flush=True)
    print(f"# starting at game {done}", flush=True)
    t0, w0 = time.process_time(), time.perf_counter()
    last_save = time.perf_counter()
    err_sum, plies, logged = 0.0, 0, done
    while done < args.games:
        n = min(args.wave, args.games - done)
        rngs = [random.Random(args.seed * 1_000_003 + done + i) for i in range(n)]
        starts = [race_start(variant, r) for r in rngs] if args.race_starts else None
        dice: list[Dice] = list(rngs)
        lr = step_size(args.lr, args.lr_end, args.decay_games, done)
        for game in play_wave(evaluator, variant, dice, args.exact_bearoff, starts):
            err_sum += learn(evaluator, variant, game, args.lam, lr)
            plies += len(game.xs)
        done += n
        if done - logged >= args.log_every or done == args.games:
            cpu, wall = time.process_time() - t0, time.perf_counter() - w0
            count = done - logged
            print(
                f"game {done:7d}  cpu {cpu:8.1f}s  wall {wall:8.1f}s"
                f"  plies/game {plies / count:5.1f}  mean|err| {err_sum / count:.4f}"
                f"  lr {lr:.6f}",
                flush=True,
            )
            err_sum, plies, logged = 0.0, 0, done
        if time.perf_counter() - last_save >= args.checkpoint or done == args.games:
            save(evaluator, out, settings, done)
            last_save = time.perf_counter()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
