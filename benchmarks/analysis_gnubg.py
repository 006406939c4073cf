"""The post-game analysis side by side with GNU Backgammon 1.07's, per game and per side.

Why: the analysis is held to agreeing with a strong reference program on what it counts
and what it finds, on games played by the project's own engine:

1. Facile plays against itself (seeded dice): whole 5-point matches (several games, so
   the Crawford game, post-Crawford play and double match point come up), money games
   with the cube, and single cubeless games (1-point matches, where no cube is turned).
2. Each match is written as a ``.mat`` file (``engine.export``), and GNU Backgammon
   (``gnubg -t``, the installed CLI) imports it, analyses it at 2 plies for both checker
   play and cube (``set analysis ... evaluation plies 2``; its default thresholds) and
   exports it as text (``export match text``): per game, every decision with its
   equities and the statistics block ("Unforced moves", "Close or actual cube
   decisions", "Error rate mEMG (MWC)"). What is read from it is cached in
   ``benchmarks/data/analysis_gnubg.json``, keyed by a digest of the ``.mat`` text, after
   every few matches (a checkpoint: a long run may be stopped and resumed), so a rerun or
   a run without GNU Backgammon reuses it.
3. The engine analyses the same games from their records (``engine.ai.analyse``, as the
   bot's /analisi does), and the table compares, per game and side: decisions counted,
   error rate (normalised, ×1000) and, in matches, MWC lost per decision.

The summary gives the share of sides whose error rate is within ±20 % of GNU Backgammon's
(sides where both count decisions), the share with the same number of decisions, how
many of the engine's three worst decisions of a game are among GNU Backgammon's three
worst, and how many of the decisions GNU Backgammon marks "very bad" (more than 0.12)
the engine marks too (as a blunder, and at all). Decisions are matched by kind, player
and gnubg Position ID. ``--details N`` lists the N decisions where the two disagree most
(both figures, the roll, the play made and Tavola's best), to study what differs.

Run from the repository root (GNU Backgammon takes about a minute of CPU per game)::

    python -m benchmarks.analysis --against-gnubg --games 24
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.gnubg_cli import gnubg_path, run_batch
from benchmarks.selfplay import recorded_match
from engine import GameRecord, MatchConfig, Play, Side, Variant, position_id_for
from engine.ai import Analysis, DecisionKind, Level, Review, analyse
from engine.ai.analysis import BLUNDER, CLOSE_CUBE, DOUBTFUL
from engine.ai.model import evaluating_file
from engine.export import write
from engine.moves import Step
from engine.record import RecordedDecision
from engine.transcript import MatchTranscript, record_transcript

CACHE = Path(__file__).parent / "data" / "analysis_gnubg.json"
#: The self-play matches themselves, by seed: their records and ``.mat`` text.
GAMES = Path(__file__).parent / "data" / "analysis_games.json"
PLIES = 2
#: Matches per GNU Backgammon process: the cache is written after each batch.
BATCH = 3
NAMES = ("Primo", "Secondo")
#: The kinds of self-play match, in turn: (name, match length); 0 is a money game.
KINDS = (("5-point", 5), ("money", 0), ("cubeless", 1))
WORST = 3


# ------------------------------------------------------------------ the games
@dataclass(frozen=True)
class Played:
    """One self-play match: its kind, its records (one per game) and its ``.mat`` text."""

    kind: str
    records: tuple[GameRecord, ...]
    text: str

    @property
    def key(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:20]


def played(kind: str, length: int, seed: int) -> Played:
    stored = _stored_games().get(str(seed))
    if stored is not None and stored["kind"] == kind:
        records = tuple(GameRecord.from_doc(doc) for doc in stored["records"])
        return Played(kind, records, stored["text"])
    config = MatchConfig(Variant.CLASSIC, length)
    records = recorded_match(config, Level.FACILE, random.Random(seed))
    games = tuple(record_transcript(r)[1] for r in records)
    return Played(kind, tuple(records), write(MatchTranscript(config, NAMES, games)))


@cache
def _stored_games() -> dict[str, dict[str, Any]]:
    """The self-play matches kept by seed (``GAMES``): Facile's play depends on the engine
    (its cube decisions use the cube model), so a change to the engine would otherwise
    play other games than those GNU Backgammon analysed, and the comparison would need
    GNU Backgammon again and could no longer tell the change's effect from the games'."""
    if not GAMES.exists():
        return {}
    stored: dict[str, dict[str, Any]] = json.loads(GAMES.read_text())
    return stored


def self_play(games: int, seed: int) -> list[Played]:
    """Matches of each kind in turn until they hold at least ``games`` games."""
    out: list[Played] = []
    total, i = 0, 0
    while total < games:
        kind, length = KINDS[i % len(KINDS)]
        match = played(kind, length, seed * 1000 + i)
        out.append(match)
        total += len(match.records)
        i += 1
    return out


# ------------------------------------------------------------------ GNU Backgammon
@dataclass
class GnuDecision:
    """One decision as GNU Backgammon analysed it (normalised error, 0 when best)."""

    kind: str  # "play", "nodouble", "double", "take"
    player: int
    position: str
    error: float
    close: bool = True  # a cube turn not doubled: counted as a close decision

    def as_doc(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "position": self.position,
            "error": round(self.error, 4),
            "close": self.close,
        }


@dataclass
class GnuGame:
    """GNU Backgammon's figures for one game: per player (the ``.mat``'s order)."""

    unforced: list[int] = field(default_factory=lambda: [0, 0])
    close_cube: list[int] = field(default_factory=lambda: [0, 0])
    rate: list[float] = field(default_factory=lambda: [0.0, 0.0])  # mEMG per decision
    mwc_rate: list[float] = field(default_factory=lambda: [0.0, 0.0])  # % MWC per decision
    decisions: list[GnuDecision] = field(default_factory=list)

    def counted(self, player: int) -> int:
        return self.unforced[player] + self.close_cube[player]

    def error_rate(self, player: int) -> float:
        """mEMG per decision: the statistics block's, or (a money game's cached before its
        label was read) the same figure from the decisions: every error, forced plays'
        zero and missed doubles not close included, over the decisions counted."""
        if self.rate[player] or not self.counted(player):
            return self.rate[player]
        lost = sum(d.error for d in self.decisions if d.player == player)
        return 1000.0 * lost / self.counted(player)

    def as_doc(self) -> dict[str, Any]:
        return {
            "unforced": self.unforced,
            "close_cube": self.close_cube,
            "rate": self.rate,
            "mwc_rate": self.mwc_rate,
            "decisions": [d.as_doc() for d in self.decisions],
        }

    @classmethod
    def of(cls, doc: dict[str, Any]) -> GnuGame:
        return cls(
            list(doc["unforced"]),
            list(doc["close_cube"]),
            [float(v) for v in doc["rate"]],
            [float(v) for v in doc["mwc_rate"]],
            [GnuDecision(**d) for d in doc["decisions"]],
        )


_HEADER = re.compile(r"^Move number \d+:\s+(\S+) (to play \d\d|on roll, cube decision\?|doubles)")
_POSITION = re.compile(r"Position ID:\s*(\S+)")
_CUBE_ROW = re.compile(
    r"^\d\.\s+(No double|No redouble|Double, take|Redouble, take|"
    r"Double, pass|Redouble, pass)\s+([-+][\d.]+)"
)
_PLAYED = re.compile(r"^\*\s+(?:\d+\.|\?\?)\s.*Eq\.:\s*[-+][\d.]+(?:\s*\(([-+][\d.]+)\))?")
_ANSWER = re.compile(r"^\* (\S+) (accepts|rejects|refuses|passes|drops)")
_NUMBERS = re.compile(r"[-+]?\d+(?:\.\d+)?")


def _cube_values(block: list[str]) -> dict[str, float]:
    rows: dict[str, float] = {}
    for line in block:
        if m := _CUBE_ROW.match(line):
            name = m.group(1).replace("Redouble", "Double").replace("No redouble", "No double")
            rows[name] = float(m.group(2))
    return rows


def _block_decisions(block: list[str], names: tuple[str, str]) -> Iterator[GnuDecision]:
    head = _HEADER.match(block[0])
    if head is None:
        return
    player = names.index(head.group(1)) if head.group(1) in names else 0
    position = next((m.group(1) for line in block if (m := _POSITION.search(line))), "")
    cube = _cube_values(block)
    if head.group(2) == "doubles":  # the answer to a double, by the other player
        answer = next((m for line in block if (m := _ANSWER.match(line))), None)
        if answer is None or len(cube) < 3:
            return
        took = answer.group(2) == "accepts"
        take, drop = cube["Double, take"], cube["Double, pass"]  # the taker's view
        error = max(0.0, drop - take) if took else max(0.0, take - drop)
        yield GnuDecision("take", 1 - player, position, error)
        return
    if len(cube) == 3:
        nd, dt, dp = cube["No double"], cube["Double, take"], cube["Double, pass"]
        double = min(dt, dp)
        best = max(nd, double)
        if head.group(2).startswith("on roll"):
            yield GnuDecision("double", player, position, max(0.0, best - double))
            return
        yield GnuDecision(
            "nodouble", player, position, max(0.0, best - nd), best - min(dt, 1.0) < CLOSE_CUBE
        )
    if head.group(2).startswith("to play"):
        for line in block:
            if m := _PLAYED.match(line):
                yield GnuDecision("play", player, position, -float(m.group(1) or 0.0))
                break


def _stats_row(lines: list[str], label: str, start: int = 0) -> tuple[str, str] | None:
    for line in lines[start:]:
        if line[:41].strip() == label:
            return line[41:65], line[65:]
    return None


def parse_game(text: str, names: tuple[str, str]) -> GnuGame:
    """One game's text export: its decisions and its statistics block."""
    lines = text.splitlines()
    game = GnuGame()
    starts = [i for i, line in enumerate(lines) if line.startswith("Move number ")]
    stats_at = next((i for i, line in enumerate(lines) if line.startswith("Game statistics")), 0)
    for a, b in zip(starts, [*starts[1:], stats_at or len(lines)], strict=True):
        game.decisions.extend(_block_decisions(lines[a:b], names))
    stats = lines[stats_at:]
    overall = next((i for i, line in enumerate(stats) if line.startswith("Overall stat")), 0)
    for label, target in (
        ("Unforced moves", game.unforced),
        ("Close or actual cube decisions", game.close_cube),
    ):
        row = _stats_row(stats, label)
        if row is not None:
            for p, cell in enumerate(row):
                target[p] = int(_NUMBERS.findall(cell)[0])
    # "Error rate mEMG (MWC)" in a match, "Error rate mEMG (Points)" in money play.
    row = next(
        (
            (line[41:65], line[65:])
            for line in stats[overall:]
            if line[:41].strip().startswith("Error rate mEMG")
        ),
        None,
    )
    if row is not None:
        for p, cell in enumerate(row):
            numbers = [float(v) for v in _NUMBERS.findall(cell)]
            game.rate[p] = -numbers[0] if numbers else 0.0
            game.mwc_rate[p] = -numbers[1] if len(numbers) > 1 and "%" in cell else 0.0
    return game


def ask_gnubg(matches: list[Played], plies: int) -> dict[str, list[GnuGame]]:
    """GNU Backgammon's analysis of each match, in one process."""
    out: dict[str, list[GnuGame]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        lines = [
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            "set export moves number 3",
        ]
        for match in matches:
            mat = Path(tmp) / f"{match.key}.mat"
            mat.write_text(match.text)
            lines += [
                f"import mat {mat}",
                "analyse match",
                f"export match text {tmp}/{match.key}.txt",
            ]
        run_batch(lines, timeout=6 * 3600)
        for match in matches:
            games: list[GnuGame] = []
            for n in range(1, len(match.records) + 1):
                name = f"{match.key}.txt" if n == 1 else f"{match.key}_{n:03d}.txt"
                path = Path(tmp) / name
                if not path.exists():
                    break
                games.append(parse_game(path.read_text(), NAMES))
            if len(games) == len(match.records):
                out[match.key] = games
    return out


def references(matches: list[Played], plies: int) -> dict[str, list[GnuGame]]:
    """Cached answers, asking GNU Backgammon for the missing ones (a batch at a time)."""
    cache: dict[str, dict[str, Any]] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    table = cache.setdefault(f"{plies}-ply", {})
    missing = [m for m in matches if m.key not in table]
    if missing and gnubg_path() is None:
        print(f"GNU Backgammon (gnubg) is not installed: {len(missing)} matches left out")
        missing = []
    for i in range(0, len(missing), BATCH):
        batch = missing[i : i + BATCH]
        start = time.perf_counter()
        for key, games in ask_gnubg(batch, plies).items():
            table[key] = [g.as_doc() for g in games]
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(cache, indent=0, sort_keys=True) + "\n")
        done = min(i + BATCH, len(missing))
        print(f"  gnubg: {done}/{len(missing)} matches ({time.perf_counter() - start:.0f} s)")
    return {k: [GnuGame.of(g) for g in v] for k, v in table.items()}


# ------------------------------------------------------------------ comparison
def decision_key(d: RecordedDecision | Review) -> tuple[str, int, str]:
    """How a decision is known on both sides: kind, player, gnubg Position ID."""
    state = d.state
    player = state.player_of(state.turn)
    if d.kind is DecisionKind.PLAY:
        kind = "play"
    elif d.kind is DecisionKind.TAKE:
        kind = "take"
    else:
        kind = "double" if d.chosen is True else "nodouble"
    return kind, player, position_id_for(state)


@dataclass
class Totals:
    sides: int = 0  # with decisions on both counts
    all_sides: int = 0
    within: int = 0
    same_count: int = 0
    counted_tavola: int = 0
    counted_gnubg: int = 0
    worst: int = 0
    worst_agree: int = 0
    blunders: int = 0
    blunders_flagged: int = 0
    blunders_marked: int = 0
    ratios: list[float] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    #: (|Tavola's loss - gnubg's error|, the row) of every decision either one counts.
    gaps: list[tuple[float, str]] = field(default_factory=list)


def _gnu_counted(game: GnuGame) -> list[GnuDecision]:
    """The decisions GNU Backgammon counts (its forced plays are not told apart here)."""
    return [d for d in game.decisions if d.kind != "nodouble" or d.close]


def _count_differences(result: Analysis, gnu: GnuGame, player: int, side: Side) -> list[str]:
    """The cube decisions counted by one analysis and not the other (plays are counted
    alike: both count the rolls with more than one play)."""
    ours = {
        decision_key(r)
        for r in result.reviews
        if r.side is side and r.kind is not DecisionKind.PLAY
    }
    theirs = {
        (d.kind, d.player, d.position)
        for d in _gnu_counted(gnu)
        if d.player == player and d.kind != "play"
    }
    return [f"    only Tavola counts {k}" for k in sorted(ours - theirs)] + [
        f"    only gnubg counts {k}" for k in sorted(theirs - ours)
    ]


def compare_game(
    kind: str, number: int, record: GameRecord, gnu: GnuGame, totals: Totals, verbose: bool
) -> list[str]:
    """The table's rows for one game, and its share of the totals."""
    result: Analysis = analyse(record.decisions(), keep=10_000)
    state = record.initial_state()
    rows = []
    for report in result.players:
        player = state.player_of(report.side)
        gnu_n, gnu_rate = gnu.counted(player), gnu.error_rate(player)
        ok = (
            report.decisions > 0
            and gnu_n > 0
            and abs(report.error_rate - gnu_rate) <= 0.2 * gnu_rate
        )
        if report.decisions and gnu_n:
            totals.sides += 1
            totals.within += ok
            if gnu_rate > 0:
                totals.ratios.append(report.error_rate / gnu_rate)
        totals.all_sides += 1
        totals.same_count += report.decisions == gnu_n
        totals.counted_tavola += report.decisions
        totals.counted_gnubg += gnu_n
        rows.append(
            f"| {kind:8} | {number:2d} | {NAMES[player]:7} | {report.decisions:4d} | {gnu_n:4d} "
            f"| {report.error_rate:7.1f} | {gnu_rate:7.1f} "
            f"| {report.mwc_rate:6.3f} | {gnu.mwc_rate[player]:6.3f} | {'yes' if ok else 'no':3} |"
        )
        if verbose:
            rows.extend(_count_differences(result, gnu, player, report.side))
    _collect_gaps(kind, number, result, gnu, totals)
    # The worst decisions: the engine's three worst among GNU Backgammon's three worst?
    ours = [decision_key(r) for r in result.worst[:WORST]]
    theirs = {
        (d.kind, d.player, d.position)
        for d in sorted(_gnu_counted(gnu), key=lambda d: -d.error)[:WORST]
        if d.error > 0
    }
    totals.worst += len(ours)
    totals.worst_agree += sum(k in theirs for k in ours)
    # Every decision GNU Backgammon marks very bad: does the engine mark it too?
    losses = {decision_key(r): r.loss for r in result.worst}
    for d in gnu.decisions:
        if d.error > BLUNDER:
            key = (d.kind, d.player, d.position)
            loss = losses.get(key, 0.0)
            totals.blunders += 1
            totals.blunders_flagged += loss > BLUNDER
            totals.blunders_marked += loss > DOUBTFUL
            if loss <= BLUNDER:
                totals.missed.append(
                    f"{kind} game {number}: {d.kind} by {NAMES[d.player]} at {d.position}, "
                    f"gnubg {d.error:.3f}, Tavola {loss:.3f}"
                )
    return rows


def _collect_gaps(kind: str, number: int, result: Analysis, gnu: GnuGame, totals: Totals) -> None:
    """Every decision one analysis counts or charges, with the other's figure (``-``: not
    counted there), for the ``--details`` listing of where the two disagree most."""
    ours = {decision_key(r): r for r in result.reviews}
    theirs = {(d.kind, d.player, d.position): d for d in _gnu_counted(gnu)}
    theirs.update({(d.kind, d.player, d.position): d for d in gnu.decisions if d.error > 0})
    for key in ours.keys() | theirs.keys():
        review, gnu_d = ours.get(key), theirs.get(key)
        loss = review.loss if review is not None else None
        error = gnu_d.error if gnu_d is not None else None
        gap = abs((loss or 0.0) - (error or 0.0))
        what, player, position = key
        shown = "  -  " if loss is None else f"{loss:.3f}"
        gnu_shown = "  -  " if error is None else f"{error:.3f}"
        if review is not None and review.kind is DecisionKind.PLAY:
            state = review.state
            made = review.chosen.steps if isinstance(review.chosen, Play) else None
            best = review.best.steps if isinstance(review.best, Play) else None
            extra = f" {state.dice}: made {_steps(made)}, Tavola's best {_steps(best)}"
        elif review is not None:
            extra = f" chosen {review.chosen}, Tavola's best {review.best}"
        else:
            extra = ""
        totals.gaps.append(
            (
                gap,
                f"{kind} game {number}: {what} by {NAMES[player]} at {position}: "
                f"Tavola {shown}, gnubg {gnu_shown}{extra}",
            )
        )


def _steps(steps: tuple[Step, ...] | None) -> str:
    if steps is None:
        return "?"
    return " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in steps) or "-"


HEADER = (
    "| kind     | g  | player  | dec. | gnu  | mEMG    | gnu     | MWC %  | gnu    | ±20 |\n"
    "|----------|----|---------|------|------|---------|---------|--------|--------|-----|"
)


def run(
    games: int,
    seed: int,
    verbose: bool,
    plies: int = PLIES,
    details: int = 0,
    weights: Path | None = None,
) -> None:
    """The comparison, Tavola's analysis made with the network of ``weights`` when given
    (a training's candidate; the games stay the stored ones, played by the shipped one)."""
    if gnubg_path() is None and not CACHE.exists():
        print("skipped: GNU Backgammon (gnubg) is not installed and no cached analysis exists")
        return
    start = time.process_time()
    matches = self_play(games, seed)
    print(
        f"{len(matches)} self-play matches, {sum(len(m.records) for m in matches)} games "
        f"(Facile vs Facile), GNU Backgammon {plies}-ply"
    )
    refs = references(matches, plies)
    totals = Totals()
    print(HEADER)
    with evaluating_file(Variant.CLASSIC, weights):
        for match in matches:
            gnu = refs.get(match.key)
            if gnu is None:
                continue
            pairs = enumerate(zip(match.records, gnu, strict=True), start=1)
            for number, (record, game) in pairs:
                for row in compare_game(match.kind, number, record, game, totals, verbose):
                    print(row)
    if not totals.sides:
        print("no game analysed by GNU Backgammon")
        return
    ratio = statistics.median(totals.ratios) if totals.ratios else float("nan")
    print(
        f"\nsides within ±20 % of gnubg's error rate: {totals.within}/{totals.sides} "
        f"({totals.within / totals.sides:.0%}); median ratio Tavola/gnubg {ratio:.2f}\n"
        f"decisions counted: Tavola {totals.counted_tavola}, gnubg {totals.counted_gnubg}; "
        f"sides with the same count: {totals.same_count}/{totals.all_sides}\n"
        f"worst decisions (Tavola's {WORST} worst per game in gnubg's {WORST} worst): "
        f"{totals.worst_agree}/{totals.worst} ({totals.worst_agree / max(1, totals.worst):.0%})\n"
        f"gnubg's very bad decisions (> {BLUNDER}): {totals.blunders}; Tavola marks "
        f"{totals.blunders_flagged} as blunders, {totals.blunders_marked} at least doubtful\n"
        f"CPU time of this process: {time.process_time() - start:.0f} s"
    )
    if verbose:
        for line in totals.missed:
            print("  missed:", line)
    if details:
        print(f"\nthe {details} decisions where Tavola and gnubg differ most (normalised loss):")
        for gap, line in sorted(totals.gaps, key=lambda t: -t[0])[:details]:
            print(f"  {gap:.3f}  {line}")
