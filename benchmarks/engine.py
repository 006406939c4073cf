"""Legal-play generation speed: median and worst time per (position, roll), plays per second.

Why: every click of the bot and every node of the computer opponent's search asks the
engine for the legal plays of a roll, so this is the engine's hot path. The targets are a
median under 0.3 ms and a worst case under 30 ms per (position, roll) in CPython on one
core, including the worst double of an open long position.

The positions are fixed: they come from random games of both variants played with a
seeded random generator, plus hand-built worst cases. Every position is timed with all 21
rolls; each (position, roll) is timed ``REPEATS`` times and the fastest run is kept, the
usual way to take scheduler noise out of a micro-benchmark.

Two more tables time what the callers actually do. The **per-roll path** is what the bot
does after every roll: a fresh state asks for the legal plays and then for the first legal
steps (the buttons); the **step-tree walk** follows every step sequence of the roll, as
the bot's one-tap shortcuts do. The **reply generation** is the inner loop of the computer's 1-ply
search: for each candidate play, the opponent's replies to all 21 rolls. Both are timed on
the shared vectors (the copy in ``tests/data/vectors``) and on the
two random corpora; any cache of the engine is emptied before each timed run, so these are
cold times.

Run from the repository root: ``python -m benchmarks.engine`` (``--quick`` for fewer positions,
``--only plays|roll|walk|replies`` for one table). ``--baseline DIR`` times the per-roll path
and the replies of an older checkout (``git worktree add DIR <commit>``) side by side with
this one and prints the speed-ups (``benchmarks/engine_baseline.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine import GameState, MatchConfig, Phase, Side, Variant, movegen
from engine.ai.search import ROLLS as REPLY_ROLLS
from engine.ai.search import ReplyRules
from engine.board import Checkers
from engine.conformance import state_from_request
from engine.movegen import TurnGenerator, roll_dice

#: The shared vectors, as copied into the repository's test data.
VECTORS = Path(__file__).resolve().parents[1] / "tests" / "data" / "vectors"

SEED = 20240603
REPEATS = 3
WALK_NODES = 400
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


@dataclass(frozen=True)
class Case:
    """One position to time: the mover's and the opponent's checkers, own numbering."""

    label: str
    variant: Variant
    mine: Checkers
    theirs: Checkers


def _checkers(counts: dict[int, int]) -> Checkers:
    c = [0] * 26
    for point, n in counts.items():
        c[point] = n
    return tuple(c)


#: Long, open board, 1-1: 15 lone checkers spread out and the opponent nearly done
#: (one checker left on their point 1, the mover's 13): 2,053 distinct plays.
WORST_LONG_SPREAD = Case(
    "long worst: spread checkers, opponent nearly off",
    Variant.LONG,
    _checkers({p: 1 for p in (3, 4, 5, 7, 8, 9, 11, 12, 16, 17, 18, 20, 21, 23, 24)}),
    _checkers({0: 14, 1: 1}),
)

#: Long, an ordinary-looking middle game with spread checkers on both sides.
LONG_OPEN_MIDDLE = Case(
    "long open middle game",
    Variant.LONG,
    _checkers({24: 3, 22: 1, 21: 2, 20: 1, 19: 1, 17: 1, 16: 1, 10: 2, 9: 1, 8: 1, 6: 1}),
    _checkers({24: 4, 23: 2, 21: 1, 20: 2, 18: 1, 17: 1, 15: 2, 13: 1, 9: 1}),
)

#: Classic: both sides spread with blots everywhere, many hitting combinations.
CLASSIC_SPREAD = Case(
    "classic spread with blots",
    Variant.CLASSIC,
    _checkers({24: 1, 22: 1, 20: 1, 18: 1, 16: 1, 14: 1, 13: 2, 11: 1, 10: 1, 8: 2, 6: 2, 5: 1}),
    _checkers({24: 2, 21: 1, 19: 1, 17: 1, 15: 1, 12: 1, 9: 2, 7: 1, 6: 3, 4: 1, 2: 1}),
)

CONSTRUCTED = (WORST_LONG_SPREAD, LONG_OPEN_MIDDLE, CLASSIC_SPREAD)


def random_game_positions(
    variant: Variant, games: int, per_game: int, rng: random.Random
) -> list[Case]:
    """Positions met at the start of turns of random games (random legal plays)."""
    cases: list[Case] = []
    for g in range(games):
        state = GameState.new_match(MatchConfig(variant))
        seen: list[Case] = []
        while not state.is_over and len(seen) < 400:
            if state.phase is Phase.OPENING:
                state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
                continue
            if state.phase is Phase.ROLL:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
            side = state.turn
            seen.append(
                Case(
                    f"{variant.value} game {g}",
                    variant,
                    state.checkers[side],
                    state.checkers[side.other],
                )
            )
            plays = state.legal_plays()
            state = state.play(rng.choice(plays)) if plays else state.confirm()
        cases.extend(rng.sample(seen, min(per_game, len(seen))))
    return cases


def time_case(case: Case, dice: tuple[int, int]) -> tuple[float, int]:
    """Fastest of REPEATS runs (seconds) and the number of distinct plays."""
    gen = TurnGenerator(case.variant, roll_dice(*dice), 1)
    best = float("inf")
    count = 0
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        count = len(gen.plays(case.mine, case.theirs))
        best = min(best, time.perf_counter() - t0)
    return best, count


@dataclass
class Row:
    name: str
    times: list[float]
    plays: int
    worst: tuple[float, str]


def measure(name: str, cases: list[Case]) -> Row:
    times: list[float] = []
    plays = 0
    worst = (0.0, "")
    for case in cases:
        for dice in ROLLS:
            t, n = time_case(case, dice)
            times.append(t)
            plays += n
            if t > worst[0]:
                worst = (t, f"{case.label} {dice[0]}-{dice[1]} ({n} plays)")
    return Row(name, times, plays, worst)


def _clear_caches() -> None:
    """Empty the engine's (position, dice) cache, if it has one, so a run is cold."""
    clear = getattr(movegen, "clear_caches", None)
    if clear is not None:
        clear()


def _fastest(make: Callable[[], object], run: Callable[[object], object]) -> float:
    """Fastest of REPEATS cold runs of ``run`` on a fresh ``make()`` (made outside the clock)."""
    best = float("inf")
    for _ in range(REPEATS):
        _clear_caches()
        arg = make()
        t0 = time.perf_counter()
        run(arg)
        best = min(best, time.perf_counter() - t0)
    return best


def case_state(case: Case, dice: tuple[int, int]) -> GameState:
    """The mover (White, not on the first turn) has just rolled ``dice`` in ``case``."""
    state = GameState(
        MatchConfig(case.variant),
        (case.mine, case.theirs),
        Phase.ROLL,
        Side.WHITE,
        has_moved=(True, True),
        starter=Side.WHITE,
    )
    return state.roll(*dice)


def vector_requests() -> list[dict]:
    """The shared vectors' requests, or [] when the shared directory is not there."""
    out: list[dict] = []
    for name in ("classic_legal_plays.jsonl", "long_legal_plays.jsonl"):
        path = VECTORS / name
        if path.is_file():
            out.extend(json.loads(line) for line in path.read_text().splitlines() if line)
    return out


def _per_roll(state: GameState) -> None:
    state.legal_plays()
    state.legal_steps()


def per_roll_times(makers: list[Callable[[], GameState]]) -> list[float]:
    """The bot's work after a roll (plays, then the step buttons), per (position, roll)."""
    return [_fastest(make, _per_roll) for make in makers]  # type: ignore[arg-type]


def _walk(state: GameState) -> None:
    """What the one-tap buttons do: every step sequence of the roll, up to WALK_NODES states
    (as the bot's complete-play shortcuts walk legal_steps() and step())."""
    todo = [state]
    nodes = 0
    while todo and nodes < WALK_NODES:
        s = todo.pop()
        nodes += 1
        todo.extend(s.step(step) for step in s.legal_steps())


def walk_times(makers: list[Callable[[], GameState]]) -> list[float]:
    return [_fastest(make, _walk) for make in makers]  # type: ignore[arg-type]


def _reply_sets(args: object) -> None:
    """The opponent's replies to every roll after each play, as engine.ai.search makes them."""
    rules, pairs = args  # type: ignore[misc]
    fast = getattr(rules, "replies", None)
    for me, opp in pairs:
        for d1, d2, _ in REPLY_ROLLS:
            if fast is not None:
                fast(d1, d2, opp, me)
            else:
                rules.generator(d1, d2).plays(opp, me)


def reply_times(cases: list[Case], plays_per_case: int) -> list[float]:
    """Per position: the reply generation of one 1-ply search over its first plays.

    Each position is taken with one roll (they rotate through the 21) and its first
    ``plays_per_case`` legal plays, the candidates a 1-ply search would look at.
    """
    times: list[float] = []
    for i, case in enumerate(cases):
        dice = ROLLS[i % len(ROLLS)]
        plays = case_state(case, dice).legal_plays()[:plays_per_case]
        if not plays:
            continue
        pairs = [(p.mine, p.theirs) for p in plays]
        rules = ReplyRules(case.variant)
        times.append(_fastest(lambda r=rules, p=pairs: (r, p), _reply_sets))
    return times


def _print_times(title: str, rows: list[tuple[str, list[float]]]) -> None:
    head = f"{title:<48} {'cases':>6} {'median ms':>10} {'worst ms':>9} {'total s':>8}"
    print()
    print(head)
    print("-" * len(head))
    for name, times in rows:
        if times:
            print(
                f"{name:<48} {len(times):>6} {statistics.median(times) * 1e3:>10.3f} "
                f"{max(times) * 1e3:>9.2f} {sum(times):>8.3f}"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer random positions")
    parser.add_argument(
        "--only", choices=("plays", "roll", "walk", "replies"), help="one table only"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="an older checkout: time its per-roll path and replies side by side with ours",
    )
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    games, per_game = (4, 10) if args.quick else (12, 15)
    classic = random_game_positions(Variant.CLASSIC, games, per_game, rng)
    long_ = random_game_positions(Variant.LONG, games, per_game, rng)
    if args.baseline is not None:
        from benchmarks.engine_baseline import compare

        compare(args.baseline, classic, long_, args.only)
        return
    if args.only in (None, "plays"):
        plays_table(classic, long_)
    if args.only in (None, "roll"):
        requests = vector_requests()
        _print_times(
            "per-roll path (plays + steps)",
            [
                (
                    f"shared vectors ({len(requests)} lines)",
                    per_roll_times([lambda r=r: state_from_request(r) for r in requests]),
                ),
                *(
                    (
                        f"{name} ({len(cases)} pos x 21 rolls)",
                        per_roll_times(
                            [lambda c=c, d=d: case_state(c, d) for c in cases for d in ROLLS]
                        ),
                    )
                    for name, cases in (("classic random", classic), ("long random", long_))
                ),
            ],
        )
    if args.only in (None, "walk"):
        requests = vector_requests()
        _print_times(
            f"step-tree walk (buttons, <= {WALK_NODES} states)",
            [
                (
                    f"shared vectors ({len(requests)} lines)",
                    walk_times([lambda r=r: state_from_request(r) for r in requests]),
                ),
                *(
                    (
                        f"{name} (first 40 pos x 21 rolls)",
                        walk_times(
                            [lambda c=c, d=d: case_state(c, d) for c in cases[:40] for d in ROLLS]
                        ),
                    )
                    for name, cases in (("classic random", classic), ("long random", long_))
                ),
            ],
        )
    if args.only in (None, "replies"):
        _print_times(
            "reply generation (1-ply, 6 plays x 21 rolls)",
            [
                (f"{name} ({len(cases)} pos)", reply_times(cases, 6))
                for name, cases in (("classic random", classic), ("long random", long_))
            ],
        )


def plays_table(classic: list[Case], long_: list[Case]) -> None:
    """The original table: ``TurnGenerator.plays`` alone, per (position, roll)."""
    rows = [
        measure(f"classic random ({len(classic)} pos)", classic),
        measure(f"long random ({len(long_)} pos)", long_),
        *(measure(c.label, [c]) for c in CONSTRUCTED),
    ]
    every = [t for r in rows for t in r.times]
    total_plays = sum(r.plays for r in rows)
    head = f"{'set':<48} {'cases':>6} {'median ms':>10} {'worst ms':>9} {'plays/s':>10}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r.name:<48} {len(r.times):>6} {statistics.median(r.times) * 1e3:>10.3f} "
            f"{max(r.times) * 1e3:>9.2f} {r.plays / sum(r.times):>10,.0f}"
        )
    print("-" * len(head))
    print(
        f"{'all':<48} {len(every):>6} {statistics.median(every) * 1e3:>10.3f} "
        f"{max(every) * 1e3:>9.2f} {total_plays / sum(every):>10,.0f}"
    )
    for r in rows:
        print(f"worst of {r.name}: {r.worst[1]}: {r.worst[0] * 1e3:.2f} ms")
    print("targets: median < 0.3 ms, worst < 30 ms per (position, roll)")


if __name__ == "__main__":
    main()
