"""Agreement of the computer's cube decisions with GNU Backgammon's, at several match scores.

Why: the cube model (match equity table, gammon values, Janowski's cube life) is held to
agreeing with a strong reference program on at least 90% of double and take decisions.
This script measures it on positions the project's own engine reaches in self-play:

1. Medio plays cubeless games against itself (seeded dice); before each roll where the
   side on roll has a cubeless equity in a doubling window (``WINDOW``), the position is a
   candidate; a few per game are kept, spread over the game.
2. Each position is put at two match scores from ``SCORES`` in turn (a long match at 0-0
   stands in for money, which the project does not play; 3-away/3-away, 5-away/3-away,
   2-away/4-away, post-Crawford, 7-away/7-away, ...).
3. GNU Backgammon (``gnubg -t``, the installed CLI, one process for the whole batch) gives
   its proper cube action and the match-winning chances (MWC) of no double, double/take
   and double/pass; the answers are cached in ``benchmarks/data/cube_gnubg.json`` so a
   rerun, or a run without GNU Backgammon, reuses them.
4. The computer answers both questions through the public API (``cube_decision`` on the
   position, ``accept_double`` after a double). A disagreement costs, in GNU Backgammon's
   own MWC, the difference between its best action and the one the computer chose.
   The table gives, per score, the agreement on doubling, on taking and on both, and the
   cost in points of MWC per decision and per disagreement. ``--model-only`` feeds the
   cube model GNU Backgammon's own cubeless chances, which separates the model's errors
   from the network's; the last line tells how far the level's chances are from them.

Run from the repository root, for example::

    python -m benchmarks.cube                       # 200 positions x 2 scores, Difficile
    python -m benchmarks.cube --level medio --positions 200 --plies 2
    python -m benchmarks.cube --weights runs/classic.npz   # a checkpoint's decisions
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.gnubg_cli import gnubg_path, run_batch
from benchmarks.selfplay import cubeless_game
from engine import GameState, MatchConfig, Phase, Variant, match_id_for, position_id_for
from engine.ai import Level, accept_double, cube, cube_decision
from engine.ai.model import evaluating_file
from engine.ai.outcomes import equity
from engine.ai.search import ReplyRules, one_ply_pre_roll, pre_roll

CACHE = Path(__file__).parent / "data" / "cube_gnubg.json"
#: Cubeless equity of the side on roll that makes a cube decision worth asking.
WINDOW = (0.25, 1.4)
#: At most this many positions from one game, at least this many moves apart.
PER_GAME, SPACING = 3, 4


@dataclass(frozen=True, slots=True)
class Score:
    """A match score for the side on roll: its points needed, the opponent's, the cube."""

    name: str
    length: int
    away: int
    opp_away: int
    post_crawford: bool = False
    cube: int = 1
    owned: bool = False  # the cube (above 1) is the roller's; otherwise centred


SCORES = (
    Score("money-like 25a/25a", 25, 25, 25),
    Score("money-like redouble", 25, 25, 25, cube=2, owned=True),
    Score("3a/3a", 5, 3, 3),
    Score("5a/3a", 7, 5, 3),
    Score("3a/5a", 7, 3, 5),
    Score("2a/4a", 5, 2, 4),
    Score("4a/2a", 5, 4, 2),
    Score("post-Crawford 3a/1a", 5, 3, 1, post_crawford=True),
    Score("post-Crawford 4a/1a", 7, 4, 1, post_crawford=True),
    Score("7a/7a", 7, 7, 7),
    Score("2a/2a", 7, 2, 2),
    Score("9a/5a", 11, 9, 5),
)


# ------------------------------------------------------------------ positions
def _candidates(seed: int) -> list[GameState]:
    """Pre-roll positions of one Medio self-play game inside the doubling window."""
    dice, rng = random.Random(seed), random.Random(seed ^ 0x5EED)
    found: list[GameState] = []
    last = -SPACING
    move = 0
    for state in cubeless_game(Variant.CLASSIC, dice, rng):
        if state.phase is not Phase.ROLL:
            continue
        move += 1
        on, off = state.checkers[state.turn], state.checkers[state.turn.other]
        eq = float(equity(Variant.CLASSIC, pre_roll(Variant.CLASSIC, on, off)))
        if WINDOW[0] <= eq <= WINDOW[1] and move - last >= SPACING and all(state.has_moved):
            found.append(state)
            last = move
    return found


def sample_positions(count: int, seed: int) -> list[GameState]:
    """``count`` candidate positions from as many self-play games as it takes."""
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        found = _candidates(seed * 1_000_003 + game)
        game += 1
        if found:
            pick = random.Random(game).sample(found, min(PER_GAME, len(found)))
            out.extend(pick[: count - len(out)])
    return out


def at_score(state: GameState, score: Score) -> GameState:
    """``state``'s board, the side on roll facing the cube at ``score``."""
    me = state.player_of(state.turn)
    points = [0, 0]
    points[me] = score.length - score.away
    points[1 - me] = score.length - score.opp_away
    config = MatchConfig(Variant.CLASSIC, length=score.length, cube=True)
    return replace(
        state,
        config=config,
        score=(points[0], points[1]),
        crawford=False,
        crawford_done=score.post_crawford,
        cube_value=score.cube,
        cube_owner=state.turn if score.owned else None,
    )


# ----------------------------------------------------------------- reference
@dataclass(frozen=True, slots=True)
class Reference:
    """GNU Backgammon's answer: MWC of the three futures (roller's view), proper action."""

    no_double: float
    double_take: float
    double_pass: float
    action: str
    probs: tuple[float, ...]  # cubeless: win, gammon, backgammon, lose gammon, lose bg

    @property
    def double(self) -> bool:
        return self.action.startswith(("Double", "Redouble", "Optional"))

    @property
    def take(self) -> bool:
        return self.double_take <= self.double_pass


def key_of(state: GameState) -> str:
    return f"{position_id_for(state)}:{match_id_for(state)}"


_ROW = re.compile(
    r"^\s*\d\.\s+(No double|No redouble|Double, take|Redouble, take|"
    r"Double, pass|Redouble, pass)\s+([\d.]+)%"
)
_BOARD = re.compile(r"Position ID:\s*(\S+)")
_MATCH = re.compile(r"Match ID\s*:\s*(\S+)")
_PROBS = re.compile(r"^\s*([\d.]+) ([\d.]+) ([\d.]+) - ([\d.]+) ([\d.]+) ([\d.]+)\s*$")
_PROPER = re.compile(r"Proper cube action:\s*(.+?)\s*$")


def parse_analyses(output: str) -> dict[str, Reference]:
    """Each cube analysis, keyed by the ids of the board shown just before it."""
    found: dict[str, Reference] = {}
    pos = mid = ""
    rows: dict[str, float] = {}
    probs: tuple[float, ...] = ()
    for line in output.splitlines():
        if m := _BOARD.search(line):
            pos = m.group(1)
        elif m := _MATCH.search(line):
            mid = m.group(1)
        elif line.startswith("Cube analysis"):
            rows, probs = {}, ()
        elif m := _PROBS.match(line):
            p = [float(v) for v in m.groups()]
            probs = (p[0], p[1], p[2], p[4], p[5])
        elif m := _ROW.match(line):
            kind = m.group(1).replace("Redouble", "Double").replace("No redouble", "No double")
            rows[kind] = float(m.group(2)) / 100.0
        elif (m := _PROPER.search(line)) and len(rows) == 3:
            found[f"{pos}:{mid}"] = Reference(
                rows["No double"], rows["Double, take"], rows["Double, pass"], m.group(1), probs
            )
    return found


def ask_gnubg(states: list[GameState], plies: int) -> dict[str, Reference]:
    """GNU Backgammon's cube analysis of each state, in one batch process."""
    if gnubg_path() is None:
        print(f"GNU Backgammon (gnubg) is not installed: {len(states)} positions left out")
        return {}
    lines = [
        "set automatic game off",
        "set automatic roll off",
        "set output mwc on",
        f"set evaluation cubedecision evaluation plies {plies}",
        f"set evaluation chequerplay evaluation plies {plies}",
    ]
    for state in states:
        lines += [
            f"new match {state.config.length}",
            f"set matchid {match_id_for(state)}",
            f"set board {position_id_for(state)}",
            "hint",
        ]
    return parse_analyses(run_batch(lines, timeout=3600))


def references(states: list[GameState], plies: int) -> dict[str, Reference]:
    """Cached answers, asking GNU Backgammon only for the missing ones."""
    cache: dict[str, dict[str, dict[str, Any]]] = {}
    if CACHE.exists():
        cache = json.loads(CACHE.read_text())
    table = cache.setdefault(f"{plies}-ply", {})
    missing = [s for s in states if key_of(s) not in table]
    if missing:
        for key, ref in ask_gnubg(missing, plies).items():
            table[key] = {
                "no_double": ref.no_double,
                "double_take": ref.double_take,
                "double_pass": ref.double_pass,
                "action": ref.action,
                "probs": list(ref.probs),
            }
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(cache, indent=0, sort_keys=True) + "\n")
    return {
        k: Reference(
            float(v["no_double"]),
            float(v["double_take"]),
            float(v["double_pass"]),
            str(v["action"]),
            tuple(float(p) for p in v["probs"]),
        )
        for k, v in table.items()
    }


# ----------------------------------------------------------------- comparison
@dataclass
class Tally:
    doubles: int = 0
    double_agree: int = 0
    double_cost: float = 0.0
    takes: int = 0
    take_agree: int = 0
    take_cost: float = 0.0

    def add(self, ref: Reference, double: bool, take: bool) -> None:
        best = max(ref.no_double, min(ref.double_take, ref.double_pass))
        chosen = min(ref.double_take, ref.double_pass) if double else ref.no_double
        self.doubles += 1
        self.double_agree += double == ref.double
        self.double_cost += best - chosen if double != ref.double else 0.0
        self.takes += 1
        self.take_agree += take == ref.take
        self.take_cost += abs(ref.double_take - ref.double_pass) if take != ref.take else 0.0

    def row(self, name: str) -> str:
        n = self.doubles + self.takes
        agree = self.double_agree + self.take_agree
        cost = self.double_cost + self.take_cost
        return (
            f"| {name:22} | {self.doubles:4d} | {self.double_agree / self.doubles:6.1%} "
            f"| {self.take_agree / self.takes:6.1%} | {agree / n:6.1%} "
            f"| {100 * cost / n:7.3f} | {100 * cost / max(1, n - agree):7.2f} |"
        )


HEADER = (
    "| score                  | pos  | double | take   | both   | cost/dec | cost/err |\n"
    "|------------------------|------|--------|--------|--------|----------|----------|"
)


def model_decisions(state: GameState, ref: Reference) -> tuple[bool, bool]:
    """The cube model's answers on GNU Backgammon's own cubeless chances (model only)."""
    on, off = state.checkers[state.turn], state.checkers[state.turn.other]
    me = state.player_of(state.turn)
    length = state.config.length
    view = cube.View.of(
        Variant.CLASSIC,
        np.array(ref.probs),
        length - state.score[me],
        length - state.score[1 - me],
        state.crawford_done,
        cube.cube_efficiency(on, off),
    )
    analysis = cube.analyse(view, state.cube_value, centred=state.cube_owner is None)
    return analysis.double, analysis.take


def level_chances(state: GameState, level: Level) -> np.ndarray:
    """The cubeless chances the level's cube decision starts from (the side on roll's)."""
    on, off = state.checkers[state.turn], state.checkers[state.turn.other]
    if level is Level.DIFFICILE:
        rules = ReplyRules(Variant.CLASSIC, first_turn=not state.has_moved[state.turn])
        return np.asarray(one_ply_pre_roll(Variant.CLASSIC, on, off, rules))
    return np.asarray(pre_roll(Variant.CLASSIC, on, off))


def chances_line(errors: list[np.ndarray]) -> str:
    """How far the level's chances are from GNU Backgammon's: the source of most errors."""
    e = np.array(errors)
    mae, bias = np.abs(e).mean(axis=0) * 100, e.mean(axis=0) * 100
    return (
        f"chances against GNU Backgammon's (points of %): win mean abs error {mae[0]:.1f} "
        f"(bias {bias[0]:+.1f}), gammon {mae[1]:.1f} ({bias[1]:+.1f}), backgammon "
        f"{mae[2]:.1f} ({bias[2]:+.1f}), lose gammon {mae[3]:.1f} ({bias[3]:+.1f})"
    )


def compare(
    states: list[tuple[Score, GameState]],
    refs: dict[str, Reference],
    level: Level,
    model_only: bool,
    tallies: dict[str, Tally],
    errors: list[np.ndarray],
) -> None:
    """Tally the decisions on every state GNU Backgammon answered, per score and in all."""
    for score, state in states:
        ref = refs.get(key_of(state))
        if ref is None:
            continue
        if model_only:
            double, take = model_decisions(state, ref)
        else:
            double = cube_decision(state, level)
            take = accept_double(state.double(), level)
            errors.append(level_chances(state, level) - np.array(ref.probs))
        tallies[score.name].add(ref, double, take)
        tallies["all"].add(ref, double, take)


def main() -> None:
    ap = argparse.ArgumentParser(description="Cube decisions against GNU Backgammon's.")
    ap.add_argument("--positions", type=int, default=200, help="self-play positions")
    ap.add_argument("--per-position", type=int, default=2, help="match scores per position")
    ap.add_argument("--level", choices=[lv.value for lv in Level], default="difficile")
    ap.add_argument("--plies", type=int, default=2, help="GNU Backgammon's look-ahead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--weights",
        type=Path,
        default=None,
        help="weights file for the decisions (the positions come from the shipped ones)",
    )
    ap.add_argument(
        "--model-only",
        action="store_true",
        help="judge the cube model alone: feed it GNU Backgammon's cubeless chances",
    )
    args = ap.parse_args()
    level = Level(args.level)
    t0 = time.perf_counter()
    positions = sample_positions(args.positions, args.seed)
    states: list[tuple[Score, GameState]] = []
    for i, state in enumerate(positions):
        for j in range(args.per_position):
            score = SCORES[(i * args.per_position + j) % len(SCORES)]
            states.append((score, at_score(state, score)))
    refs = references([s for _, s in states], args.plies)
    tallies: dict[str, Tally] = defaultdict(Tally)
    errors: list[np.ndarray] = []
    with evaluating_file(Variant.CLASSIC, args.weights):
        compare(states, refs, level, args.model_only, tallies, errors)
    who = "cube model on GNU Backgammon's chances" if args.model_only else args.level
    print(
        f"{who}, {tallies['all'].doubles} decisions of each kind on "
        f"{len(positions)} positions, GNU Backgammon {args.plies}-ply; costs in % of MWC "
        f"({time.perf_counter() - t0:.0f} s)"
    )
    print(HEADER)
    for score in SCORES:
        if score.name in tallies:
            print(tallies[score.name].row(score.name))
    print(tallies["all"].row("all"))
    if errors:
        print(chances_line(errors))


if __name__ == "__main__":
    main()
