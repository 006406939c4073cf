"""Hints against GNU Backgammon's: checker plays and cube decisions at varied scores and cubes.

Why: a hint is worth asking only if it agrees with a strong reference program. This
measures the hints the bot gives (``engine.ai.checker_hint`` and ``engine.ai.cube_hint``,
what the worker runs) against GNU Backgammon 1.07 at 2-ply:

1. Medio plays cubeless classic games against itself (seeded dice). Turns with a choice
   (at least two legal plays) are checker positions, a few per game, spread over it;
   turns before a roll where the side on roll has a cubeless equity in a doubling window
   (``benchmarks.cube.WINDOW``) are cube positions.
2. Each position is put in a game context from ``CONTEXTS`` in turn: the money game with
   the cube centred, owned or lost; matches at several scores with cube 1, 2 or 4 and
   either owner; the Crawford game; post-Crawford; a single game (a 1-point match). Cube
   positions use the contexts where the side on roll may double.
3. GNU Backgammon (``gnubg -t``, the installed CLI, one process per batch) gives its
   ``hint``: every play of the roll with its cubeful equity (normalised, the "EMG" of
   matches: the same unit at every score), and before a roll the cube analysis. Its move
   filter is wider than its default (``GNUBG_SETTINGS``) so that the hint's play is
   nearly always among those it values at 2-ply. The answers are cached in
   ``benchmarks/data/hints_gnubg.json``: a rerun, or a run without GNU Backgammon, reuses
   them.
4. The report: how often the hint's best play is GNU Backgammon's best, the mean and the
   largest equity the hint's play loses in GNU Backgammon's judgement, how many lose more
   than 0.1; for the cube, how often the hint's advice to double (or not) and to take (or
   pass) is GNU Backgammon's proper action; the CPU time of a hint. ``--baseline`` adds
   the same figures for the computer's cubeless ranking (``engine.ai.hint``), the hints of
   earlier versions; ``--cube-nodes`` chooses how deep the hint's two-ply stage decides
   the cube (``engine.ai.hints.CUBE_NODES``; 0: once, from the averaged chances).

Measured (320 plays, 160 cubes): the cube decided once from the averaged chances, top
83.1 %, mean loss 0.0039, one loss above 0.1 (0.183), CPU per hint 0.34 s mean, 2.0 s
at most; where the mover is on roll after each reply (1), 85.0 %, 0.0029, none, 0.38 s,
2.3 s; at every node (2, the default), 84.7 %, 0.0031, none (the largest 0.078), 0.61 s,
3.0 s. Cube hints: 92.2 % of decisions from the chances one ply ahead; 93.4 % two plies
deep with the cube decided after each roll (``engine.ai.cube_root``, the default).
Valuing the cube trees' leaves together with numpy (``engine.ai.cube_leaves``, the same
values to the bit) cut the CPU per hint, with every answer unchanged: checker hints
0.75 s to 0.39 s mean, cube hints 0.18 s to 0.11 s (measured on a shared machine).

``--weights FILE`` gives the hints of another weights file (a training's candidate) on
the same positions: they are always those of the shipped network's games, so GNU
Backgammon's cached answers serve both.

Without GNU Backgammon and without cached answers the run says so and stops (exit 0).

Run from the repository root, for example::

    python -m benchmarks.hints --against-gnubg                # 320 plays, 160 cubes
    python -m benchmarks.hints --against-gnubg --positions 100 --cubes 50 --baseline
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmarks.cube import WINDOW
from benchmarks.gnubg_cli import gnubg_path, run_batch
from benchmarks.selfplay import cubeless_game
from engine import (
    EngineError,
    GameState,
    MatchConfig,
    Phase,
    Play,
    Variant,
    format_play,
    match_id_for,
    position_id_for,
    read_play,
)
from engine.ai import CubeAdvice, checker_hint, cube_hint, hint
from engine.ai.hints import CUBE_HINT_PLIES, CUBE_NODES
from engine.ai.model import evaluating_file
from engine.ai.outcomes import equity
from engine.ai.search import pre_roll

CACHE = Path(__file__).parent / "data" / "hints_gnubg.json"
#: Checker positions kept from one game at most, and at least this many turns apart.
PLAYS_PER_GAME, PLAY_SPACING = 5, 3
CUBES_PER_GAME, CUBE_SPACING = 2, 4
#: A play that loses more than this (normalised equity) is a hint blunder.
BIG_LOSS = 0.1
#: gnubg at 2-ply for plays and cubes; every play within 0.32 of the best at 0-ply (up to
#: 16) valued at 2-ply, so that the hint's choice gets GNU Backgammon's full judgement.
GNUBG_SETTINGS = (
    "set automatic game off",
    "set automatic roll off",
    "set output mwc off",
    "set evaluation chequerplay evaluation plies 2",
    "set evaluation cubedecision evaluation plies 2",
    "set evaluation movefilter 2 0 4 12 0.32",
)


@dataclass(frozen=True, slots=True)
class Context:
    """A game context for the side on roll: the points it and its opponent need, the
    cube, the Crawford rule. ``length`` 0 is the money game."""

    name: str
    length: int
    away: int = 0
    opp_away: int = 0
    cube: int = 1
    owner: str | None = None  # "me" (the side on roll), "opp", None: centred
    crawford: bool = False  # this game is the Crawford game
    post_crawford: bool = False

    @property
    def may_double(self) -> bool:
        return self.length != 1 and not self.crawford and self.owner != "opp"


CONTEXTS = (
    Context("money, cube centred", 0),
    Context("money, cube 2 mine", 0, cube=2, owner="me"),
    Context("money, cube 2 theirs", 0, cube=2, owner="opp"),
    Context("3a/3a", 3, 3, 3),
    Context("2a/4a cube 2 theirs", 5, 2, 4, cube=2, owner="opp"),
    Context("4a/2a", 5, 4, 2),
    Context("5a/3a cube 2 mine", 7, 5, 3, cube=2, owner="me"),
    Context("3a/5a", 7, 3, 5),
    Context("Crawford 1a/3a", 5, 1, 3, crawford=True),
    Context("Crawford 3a/1a", 5, 3, 1, crawford=True),
    Context("post-Crawford 3a/1a", 5, 3, 1, post_crawford=True),
    Context("7a/7a cube 4 mine", 7, 7, 7, cube=4, owner="me"),
    Context("2a/2a", 7, 2, 2),
    Context("9a/5a cube 2 theirs", 11, 9, 5, cube=2, owner="opp"),
    Context("single game", 1, 1, 1),
    Context("money, cube 4 mine", 0, cube=4, owner="me"),
)


def in_context(state: GameState, ctx: Context) -> GameState:
    """``state``'s board and roll, the side on roll in the game context ``ctx``."""
    me = state.player_of(state.turn)
    points = [0, 0]
    if ctx.length > 1:
        points[me] = ctx.length - ctx.away
        points[1 - me] = ctx.length - ctx.opp_away
    owner = {None: None, "me": state.turn, "opp": state.turn.other}[ctx.owner]
    config = MatchConfig(Variant.CLASSIC, length=ctx.length, cube=True)
    return replace(
        state,
        config=config,
        score=(points[0], points[1]),
        crawford=ctx.crawford,
        crawford_done=ctx.crawford or ctx.post_crawford,
        cube_value=ctx.cube,
        cube_owner=owner,
    )


# ------------------------------------------------------------------- positions
def _spread(found: list[GameState], most: int, seed: int) -> list[GameState]:
    return random.Random(seed).sample(found, min(most, len(found)))


def _game_positions(seed: int) -> tuple[list[GameState], list[GameState]]:
    """(checker positions, cube positions) of one Medio self-play game."""
    dice, rng = random.Random(seed), random.Random(seed ^ 0x417)
    plays: list[GameState] = []
    cubes: list[GameState] = []
    last_play, last_cube, turn = -PLAY_SPACING, -CUBE_SPACING, 0
    for state in cubeless_game(Variant.CLASSIC, dice, rng):
        if state.phase is Phase.ROLL and all(state.has_moved):
            turn += 1
            on, off = state.checkers[state.turn], state.checkers[state.turn.other]
            eq = float(equity(Variant.CLASSIC, pre_roll(Variant.CLASSIC, on, off)))
            if WINDOW[0] <= eq <= WINDOW[1] and turn - last_cube >= CUBE_SPACING:
                cubes.append(state)
                last_cube = turn
        elif (
            state.phase is Phase.MOVE
            and not state.steps
            and turn - last_play >= PLAY_SPACING
            and len(state.legal_plays()) > 1
        ):
            plays.append(state)
            last_play = turn
    return _spread(plays, PLAYS_PER_GAME, seed), _spread(cubes, CUBES_PER_GAME, seed + 1)


Sampled = list[tuple[str, GameState]]


def sample(n_plays: int, n_cubes: int, seed: int) -> tuple[Sampled, Sampled]:
    """Checker and cube positions, each with the name of the context it was put in, from
    as many games as it takes."""
    plays: Sampled = []
    cubes: Sampled = []
    game = 0
    doubling = [c for c in CONTEXTS if c.may_double]
    while len(plays) < n_plays or len(cubes) < n_cubes:
        found_plays, found_cubes = _game_positions(seed * 1_000_003 + game)
        game += 1
        for state in found_plays[: max(0, n_plays - len(plays))]:
            ctx = CONTEXTS[len(plays) % len(CONTEXTS)]
            plays.append((ctx.name, in_context(state, ctx)))
        for state in found_cubes[: max(0, n_cubes - len(cubes))]:
            ctx = doubling[len(cubes) % len(doubling)]
            cubes.append((ctx.name, in_context(state, ctx)))
    return plays, cubes


# ------------------------------------------------------------------- reference
def key_of(state: GameState) -> str:
    return f"{position_id_for(state)}:{match_id_for(state)}"


_MOVE_ROW = re.compile(r"^\s*\d+\.\s+Cube\w+\s+(\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]?[\d.]+)")
_CUBE_ROW = re.compile(
    r"^\s*\d\.\s+(No double|No redouble|Double, take|Redouble, take|"
    r"Double, pass|Redouble, pass)\s+([+-]?[\d.]+)"
)
_PROPER = re.compile(r"Proper cube action:\s*(.+?)\s*$")
_MARK = "hintmark"


def _commands(state: GameState, i: int) -> list[str]:
    """The commands of item ``i``: its game, a player named after the item (every board
    gnubg prints then carries the name, which is how the answers are told apart), its
    ids, the hint."""
    new = "new session" if state.config.money else f"new match {state.config.length}"
    what = "hint 64" if state.phase is Phase.MOVE else "hint"
    return [
        new,
        f"set player 0 name {_MARK}{i}",
        f"set matchid {match_id_for(state)}",
        f"set board {position_id_for(state)}",
        what,
    ]


_NAMED = re.compile(rf"O: {_MARK}(\d+)")


def _chunks(output: str) -> Iterator[tuple[int, str]]:
    """(item index, its output) from a batch: each line belongs to the item whose name
    the last board printed carried."""
    current, lines = -1, list[str]()
    for line in output.splitlines():
        if (m := _NAMED.search(line)) and int(m.group(1)) != current:
            if current >= 0:
                yield current, "\n".join(lines)
            current, lines = int(m.group(1)), []
        lines.append(line)
    if current >= 0:
        yield current, "\n".join(lines)


def _parse_moves(text: str) -> list[dict[str, Any]]:
    rows = []
    for line in text.splitlines():
        if m := _MOVE_ROW.match(line):
            rows.append({"plies": int(m.group(1)), "move": m.group(2), "eq": float(m.group(3))})
    return rows


def _parse_cube(text: str) -> dict[str, Any] | None:
    rows: dict[str, float] = {}
    for line in text.splitlines():
        if m := _CUBE_ROW.match(line):
            kind = m.group(1).replace("Redouble", "Double").replace("No redouble", "No double")
            rows[kind] = float(m.group(2))
        elif (m := _PROPER.search(line)) and len(rows) == 3:
            return {
                "no_double": rows["No double"],
                "double_take": rows["Double, take"],
                "double_pass": rows["Double, pass"],
                "action": m.group(1),
            }
    return None


def ask_gnubg(states: list[GameState]) -> dict[str, Any]:
    """GNU Backgammon's hint for each state, in one batch process (keyed by ``key_of``)."""
    lines = list(GNUBG_SETTINGS)
    for i, state in enumerate(states):
        lines += _commands(state, i)
    found: dict[str, Any] = {}
    for i, text in _chunks(run_batch(lines, timeout=7200)):
        state = states[i]
        answer: Any = _parse_moves(text) if state.phase is Phase.MOVE else _parse_cube(text)
        if answer:
            found[key_of(state)] = answer
    return found


def gnubg_available() -> bool:
    return gnubg_path() is not None


def references(states: list[GameState]) -> dict[str, Any]:
    """Cached answers, asking GNU Backgammon only for the missing ones (when installed)."""
    cache: dict[str, Any] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    settings = "; ".join(GNUBG_SETTINGS)
    table: dict[str, Any] = cache.setdefault(settings, {})
    missing = list({key_of(s): s for s in states if key_of(s) not in table}.values())
    if missing and gnubg_available():
        print(f"asking GNU Backgammon about {len(missing)} positions…", file=sys.stderr)
        table.update(ask_gnubg(missing))
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(cache, indent=0, sort_keys=True) + "\n")
    elif missing:
        print(f"GNU Backgammon (gnubg) is not installed: {len(missing)} positions left out")
    return table


# ------------------------------------------------------------------ comparison
@dataclass
class PlayTally:
    """Checker-play agreement and losses of one ranking."""

    n: int = 0
    top: int = 0
    losses: list[float] = field(default_factory=list)
    unlisted: int = 0  # the hint's play is not in gnubg's list (counted at its last value)
    cpu: list[float] = field(default_factory=list)

    def add(self, loss: float, cpu: float, listed: bool) -> None:
        self.n += 1
        self.top += loss <= 1e-9
        self.losses.append(loss)
        self.unlisted += not listed
        self.cpu.append(cpu)

    def row(self, name: str) -> str:
        if not self.n:
            return f"| {name:24} |    0 |"
        big = sum(loss > BIG_LOSS for loss in self.losses)
        return (
            f"| {name:24} | {self.n:4d} | {self.top / self.n:6.1%} "
            f"| {statistics.fmean(self.losses):6.4f} | {max(self.losses):6.3f} | {big:4d} |"
        )


PLAY_HEADER = (
    "| context                  | pos  | top    | mean   | max    | >0.1 |\n"
    "|--------------------------|------|--------|--------|--------|------|"
)


def play_loss(state: GameState, rows: list[dict[str, Any]], chosen: Play) -> tuple[float, bool]:
    """What ``chosen`` loses against gnubg's best, in gnubg's equity; and whether gnubg
    listed it (if not, it counts at the last value listed, a lower bound of its loss)."""
    best = rows[0]["eq"]
    target = (chosen.mine, chosen.theirs)
    for row in rows:
        try:
            play = read_play(state, row["move"])
        except EngineError:
            continue
        if (play.mine, play.theirs) == target:
            return max(0.0, best - row["eq"]), True
    return max(0.0, best - rows[-1]["eq"]), False


@dataclass
class CubeTally:
    n: int = 0
    double_agree: int = 0
    take_agree: int = 0
    both: int = 0
    cpu: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def gnubg_doubles(action: str) -> bool | None:
    """Does gnubg's proper action double? None for "Optional": doubling and playing on
    are worth the same, so either answer agrees."""
    if action.startswith("Optional"):
        return None
    return action.startswith(("Double", "Redouble"))


def compare_cube(
    name: str, state: GameState, ref: dict[str, Any], tally: CubeTally, plies: int
) -> None:
    start = time.process_time()
    advice = cube_hint(state, plies).advice
    answer = cube_hint(state.double(), plies).advice
    tally.cpu.append((time.process_time() - start) / 2)
    double = advice is CubeAdvice.DOUBLE
    take = answer is CubeAdvice.TAKE
    ref_double = gnubg_doubles(ref["action"])
    ref_take = ref["double_take"] <= ref["double_pass"]
    double_ok = ref_double is None or double == ref_double
    tally.n += 1
    tally.double_agree += double_ok
    tally.take_agree += take == ref_take
    tally.both += double_ok and take == ref_take
    if not double_ok or take != ref_take:
        tally.misses.append(
            f"{key_of(state)} {name}: hint {advice.value}/{answer.value}, gnubg {ref['action']}"
        )


def _cpu_line(what: str, cpu: list[float]) -> str:
    cpu = sorted(cpu)
    p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
    return (
        f"{what}: CPU per hint mean {statistics.fmean(cpu):.3f} s, median "
        f"{statistics.median(cpu):.3f} s, 95th percentile {p95:.3f} s, max {cpu[-1]:.3f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Hints against GNU Backgammon's, at 2-ply.")
    ap.add_argument("--against-gnubg", action="store_true", help="compare with GNU Backgammon")
    ap.add_argument("--positions", type=int, default=320, help="checker positions")
    ap.add_argument("--cubes", type=int, default=160, help="cube positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", action="store_true", help="also the cubeless ranking")
    ap.add_argument("--worst", type=int, default=5, help="list the worst plays")
    ap.add_argument(
        "--cube-plies", type=int, default=CUBE_HINT_PLIES, help="how deep the cube hint looks"
    )
    ap.add_argument(
        "--cube-nodes",
        type=int,
        default=CUBE_NODES,
        choices=(0, 1, 2),
        help="how deep the checker hint decides the cube (0: once, from averaged chances)",
    )
    ap.add_argument("--weights", type=Path, default=None, help="hint with this weights file")
    args = ap.parse_args()
    if not args.against_gnubg:
        ap.error("the only measure is --against-gnubg")
    if not gnubg_available() and not CACHE.exists():
        print("skipped: GNU Backgammon (gnubg) is not installed and no answers are cached")
        return
    t0 = time.perf_counter()
    plays, cubes = sample(args.positions, args.cubes, args.seed)
    refs = references([s for _, s in plays + cubes])
    # the positions are the shipped network's games; the hints, the file's (with --weights)
    hinting = ExitStack()  # held to the end: a dropped stack would close the context
    hinting.enter_context(evaluating_file(Variant.CLASSIC, args.weights))
    tallies: dict[str, PlayTally] = {}
    baseline: dict[str, PlayTally] = {}
    worst: list[tuple[float, str]] = []
    for name, state in plays:
        rows = refs.get(key_of(state))
        if not rows:
            continue
        start = time.process_time()
        best = checker_hint(state, 1, args.cube_nodes).plays[0][0]
        cpu = time.process_time() - start
        loss, listed = play_loss(state, rows, best)
        for group in (name, "all"):
            tallies.setdefault(group, PlayTally()).add(loss, cpu, listed)
        said = f"hint {format_play(best)}, gnubg {rows[0]['move']}"
        worst.append((loss, f"{key_of(state)} {name}: {said}"))
        if args.baseline:
            start = time.process_time()
            old = hint(state, 1)[0][0]
            cpu = time.process_time() - start
            old_loss, old_listed = play_loss(state, rows, old)
            for group in (name, "all"):
                baseline.setdefault(group, PlayTally()).add(old_loss, cpu, old_listed)
    cube_tally = CubeTally()
    for name, state in cubes:
        ref = refs.get(key_of(state))
        if ref:
            compare_cube(name, state, ref, cube_tally, args.cube_plies)
    print(
        f"Hints against GNU Backgammon 1.07 at 2-ply ({time.perf_counter() - t0:.0f} s); "
        "losses in GNU Backgammon's cubeful equity, normalised to the cube (EMG in matches)"
    )
    for title, table in (("score-aware hint", tallies), ("cubeless (earlier) hint", baseline)):
        if not table:
            continue
        print(f"\n{title}:\n{PLAY_HEADER}")
        for ctx in CONTEXTS:
            if ctx.name in table:
                print(table[ctx.name].row(ctx.name))
        everything = table["all"]
        print(everything.row("all"))
        print(f"plays not in gnubg's list: {everything.unlisted}")
        print(_cpu_line(title, everything.cpu))
    if worst:
        print("\nworst plays of the hint:")
        for loss, line in sorted(worst, key=lambda t: -t[0])[: args.worst]:
            print(f"  {loss:.3f} {line}")
    c = cube_tally
    if c.n:
        print(
            f"\ncube hints: {c.n} positions; double/no double agrees {c.double_agree / c.n:.1%}, "
            f"take/pass {c.take_agree / c.n:.1%} (per decision "
            f"{(c.double_agree + c.take_agree) / (2 * c.n):.1%}); both in one position "
            f"{c.both / c.n:.1%}"
        )
        print(_cpu_line("cube hint", c.cpu))
        for line in c.misses[: args.worst]:
            print(f"  {line}")


if __name__ == "__main__":
    main()
