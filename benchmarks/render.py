"""Board rendering speed and size: ``python -m benchmarks.render``.

Times ``render.board_png`` (compose + palette mapping + PNG encoding) on one core over
a few dozen positions: the hand-made samples plus seeded random ones of both variants
(15 checkers a side, no shared points, bar and borne-off checkers in classic, dice,
cube and a highlighted last play). The first call per theme/size builds the palette,
backgrounds and sprites; it is reported apart as the cold start.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from render import BoardView, Die, LastStep, board_png, samples
from render.board import compose
from render.png import palette_board, palette_png
from render.view import Side, Variant, convert_point, other, pip_count


def _random_side(rng: random.Random, blocked: set[int], variant: Variant) -> list[int]:
    counts = [0] * 26
    left = 15
    if variant == "classic" and rng.random() < 0.3:
        counts[25] = rng.randint(1, 2)
        left -= counts[25]
    if rng.random() < 0.3:
        counts[0] = rng.randint(1, 8)
        left -= counts[0]
    free = [p for p in range(1, 25) if p not in blocked]
    home_bias = rng.random() < 0.4
    points = rng.sample(free, k=rng.randint(3, 8))
    if home_bias:
        points = [p for p in free if p <= 8] or points
    while left:
        p = rng.choice(points)
        counts[p] += 1
        left -= 1
    return counts


def random_view(rng: random.Random) -> BoardView:
    """A random but plausible position with dice, cube and a last play."""
    variant: Variant = rng.choice(("classic", "long"))
    white = _random_side(rng, set(), variant)
    taken = {convert_point(p, variant) for p in range(1, 25) if white[p]}
    black = _random_side(rng, taken, variant)
    turn: Side = rng.choice(("white", "black"))
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    dice = samples.dice(a, b, used=rng.randint(0, 1))
    mover = other(turn)
    own = white if mover == "white" else black
    occupied = [p for p in range(1, 25) if own[p]]
    steps = []
    for _ in range(rng.randint(0, 2)):
        dst = rng.choice(occupied)
        steps.append(LastStep(mover, min(dst + rng.randint(1, 6), 24), dst, False))
    cube: dict[str, object] = {}
    if variant == "classic":
        cube = {"cube_value": rng.choice((1, 2, 4, 8)), "cube_owner": None}
        if cube["cube_value"] != 1:
            cube["cube_owner"] = rng.choice(("white", "black"))
    w, bl = tuple(white), tuple(black)
    return BoardView(
        variant=variant,
        white=w,
        black=bl,
        turn=turn,
        perspective=turn,
        dice=tuple(Die(d.value, d.used) for d in dice),
        names=("Marco", "Giulia"),
        pips=(pip_count(w), pip_count(bl)),
        score=(rng.randint(0, 6), rng.randint(0, 6)),
        match_length=rng.choice((0, 5, 7)),
        last_play=tuple(steps),
        status=f"Tocca al {'Bianco' if turn == 'white' else 'Nero'}",
        **cube,  # type: ignore[arg-type]
    )


def positions(n_random: int, seed: int) -> list[BoardView]:
    rng = random.Random(seed)
    views = list(samples.named_views().values())
    views += list(samples.roll_views().values())[::4]
    views += [random_view(rng) for _ in range(n_random)]
    views += [replace(v, perspective=other(v.perspective)) for v in views[:4]]
    return views


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.render", description=__doc__)
    parser.add_argument("--random", type=int, default=30, help="random positions (30)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per position (5)")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    views = positions(args.random, args.seed)

    t0 = time.perf_counter()
    board_png(views[0])
    cold = time.perf_counter() - t0
    for v in views:  # warm every background (variant x perspective) once
        board_png(v)

    composing: list[float] = []
    encoding: list[float] = []
    total: list[float] = []
    wall: list[float] = []
    sizes: list[int] = []
    jpeg_sizes: list[int] = []
    for _ in range(args.rounds):
        for v in views:
            w0 = time.perf_counter()
            t0 = time.thread_time()
            board = compose(v)
            t1 = time.thread_time()
            data = palette_png(palette_board(board))
            t2 = time.thread_time()
            wall.append(time.perf_counter() - w0)
            composing.append(t1 - t0)
            encoding.append(t2 - t1)
            total.append(t2 - t0)
            sizes.append(len(data))
    for v in views:
        jpeg_sizes.append(len(board_png(v, jpeg=True)))

    print(f"render benchmark: {len(views)} positions x {args.rounds} rounds, 1280 px, PNG")
    print(f"cold start (palette, background, sprites): {cold * 1000:.0f} ms wall")
    print("times are CPU time of the rendering thread (one core), except the wall row")
    print()
    print(f"{'stage':<28}{'median ms':>10}{'p90 ms':>10}{'worst ms':>10}")

    def row(name: str, xs: list[float]) -> None:
        xs = sorted(xs)
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print(f"{name:<28}{_ms(statistics.median(xs)):>10}{_ms(p90):>10}{_ms(xs[-1]):>10}")

    row("compose (board_image)", composing)
    row("palette map + PNG encode", encoding)
    row("total per board (CPU)", total)
    row("total per board (wall)", wall)
    print()
    print(f"{'bytes per image':<28}{'median KB':>10}{'min KB':>10}{'max KB':>10}")
    for name, xs in (("PNG (default)", sizes), ("JPEG q88 (jpeg=True)", jpeg_sizes)):
        print(
            f"{name:<28}{statistics.median(xs) / 1024:>10.1f}{min(xs) / 1024:>10.1f}"
            f"{max(xs) / 1024:>10.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
