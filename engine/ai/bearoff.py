"""One-sided bear-off database: exact roll distributions for every home-board position.

When both sides have all their checkers home (points 1..6 or off), the game is a pure
bear-off race and its outcome depends only on how many rolls each side needs. For each of
the 54,264 ways to place up to 15 checkers on six points this module computes, by dynamic
programming over the pip count, two exact distributions:

- ``off``: the number of rolls to bear off every checker, playing each roll so as to
  minimise the expected number of rolls;
- ``first``: the number of rolls to bear off the first checker (0 once one is off), playing
  so as to minimise that expectation: the gammon (mars) saving race.

The bear-off rules are the same in both variants (long nardy's home is six points too and
nothing can hit or block there), so one database serves both. Two-sided winning and gammon
chances follow from the two sides' distributions (``race_probs``), which is how every level
plays no-contact endings exactly instead of trusting the network.

The tables take a few seconds to build; they are built on first use and cached as a file
under the user's cache directory (``TAVOLA_CACHE_DIR`` overrides it). The build is
deterministic: the same tables on every machine.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.ai.arrays import Counts, Flags, Probs
from engine.board import CHECKERS, OFF
from engine.types import Variant

#: Home points and the most checkers the database covers.
POINTS = 6
#: Bump when the tables' meaning or layout changes: old cache files are then ignored.
FORMAT = 1
#: The 21 distinct rolls, as (high die, low die, weight out of 36).
_ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1)
)
_INF = np.inf

Index = NDArray[np.int64]


def size(checkers: int = CHECKERS) -> int:
    """How many positions of at most ``checkers`` checkers there are on six points."""
    return comb(checkers + POINTS, POINTS)


#: _BINOM[a, i] = C(a, i): the combinatorial number system used to rank positions.
_BINOM = np.array([[comb(a, i) for i in range(POINTS + 1)] for a in range(CHECKERS + POINTS + 1)])


def rank(home: Counts) -> Index:
    """Database index of each row of ``home`` ((n, 6) counts on points 1..6).

    The prefix sums s_1 <= ... <= s_6 of a position become the strictly increasing
    a_i = s_i + i - 1, ranked by the combinatorial number system: sum of C(a_i, i). All
    positions with at most t checkers come before those with more, and index 0 is the
    empty board (everything off).
    """
    home = np.asarray(home, dtype=np.int64)
    a = np.cumsum(home, axis=1) + np.arange(POINTS)
    ranks: Index = _BINOM[a, np.arange(1, POINTS + 1)].sum(axis=1)
    return ranks


def positions(checkers: int = CHECKERS) -> Counts:
    """All positions of at most ``checkers`` checkers, row i being the one of index i."""
    rows: list[tuple[int, ...]] = [()]
    for _ in range(POINTS):  # extend by one point at a time, within the total
        rows = [(*r, n) for r in rows for n in range(checkers - sum(r) + 1)]
    table = np.array(rows, dtype=np.int64)
    out = np.empty_like(table)
    out[rank(table)] = table
    return out


def _successors(table: Counts) -> Index:
    """succ[i, d - 1, p - 1]: the index after one die ``d`` moves the checker on point p
    (-1 when that step is illegal). Die d bears off from point d, moves a checker from a
    higher point inside, and bears off from a lower point only when nothing is higher."""
    n = len(table)
    succ = np.full((n, POINTS, POINTS), -1, dtype=np.int64)
    # highest[i] = the highest occupied point of position i (0 when empty)
    occupied = table > 0
    highest = np.where(occupied.any(axis=1), POINTS - np.argmax(occupied[:, ::-1], axis=1), 0)
    for d in range(1, POINTS + 1):
        for p in range(1, POINTS + 1):
            legal = occupied[:, p - 1] & ((p >= d) | (highest == p))
            moved = table[legal].copy()
            moved[:, p - 1] -= 1
            if p > d:
                moved[:, p - d - 1] += 1
            succ[legal, d - 1, p - 1] = rank(moved)
    return succ


def _solve(table: Counts, succ: Index, terminal: Flags, width: int) -> Probs:
    """Distribution of the rolls needed to reach a terminal position, playing each roll to
    minimise the expected number; terminal positions need 0 rolls.

    Positions are solved by increasing pip count (every step lowers it), each level with
    numpy over all its positions. ``val[k][d]`` / ``end[k][d]`` hold, for every position
    already solved, the least expectation reachable with k steps of die d and the position
    where it is reached; a non-double roll tries both orders of its dice.
    """
    n = len(table)
    pips = table @ np.arange(1, POINTS + 1)
    dist = np.zeros((n, width))
    expect = np.zeros(n)
    dist[terminal, 0] = 1.0
    self_index = np.arange(n)
    val = {k: np.zeros((POINTS, n)) for k in range(1, 5)}
    end = {k: np.tile(self_index, (POINTS, 1)) for k in range(1, 5)}
    order = np.argsort(pips, kind="stable")
    bounds = np.searchsorted(pips[order], np.arange(pips.max() + 2))
    for level in range(pips.max() + 1):
        idx = order[bounds[level] : bounds[level + 1]]
        idx = idx[~terminal[idx]]
        if not len(idx):
            continue
        rows = np.arange(len(idx))

        def step(
            die: int, then_val: Probs, then_end: Index, idx: Index = idx, rows: Index = rows
        ) -> tuple[Probs, Index]:
            cand = succ[idx, die - 1]
            ok = cand >= 0
            safe = np.where(ok, cand, 0)
            v = np.where(ok, then_val[safe], _INF)
            j = np.argmin(v, axis=1)
            return v[rows, j], then_end[safe[rows, j]]

        for d in range(1, POINTS + 1):
            v, e = step(d, expect, self_index)
            val[1][d - 1, idx], end[1][d - 1, idx] = v, e
            for k in range(2, 5):
                v, e = step(d, val[k - 1][d - 1], end[k - 1][d - 1])
                val[k][d - 1, idx], end[k][d - 1, idx] = v, e
        total = np.zeros(len(idx))
        acc = np.zeros((len(idx), width))
        for a, b, w in _ROLLS:
            if a == b:
                v, e = val[4][a - 1, idx], end[4][a - 1, idx]
            else:
                v1, e1 = step(a, val[1][b - 1], end[1][b - 1])
                v2, e2 = step(b, val[1][a - 1], end[1][a - 1])
                first = v1 <= v2
                v, e = np.where(first, v1, v2), np.where(first, e1, e2)
            total += w * v
            acc[:, 1:] += w * dist[e, :-1]
        expect[idx] = 1.0 + total / 36.0
        dist[idx] = acc / 36.0
    return dist


@dataclass(frozen=True, slots=True)
class Tables:
    """The two distributions, row = position index, column = number of rolls."""

    off: Probs
    first: Probs


def build(checkers: int = CHECKERS) -> Tables:
    """Compute the database for positions of at most ``checkers`` checkers.

    ``first`` treats a position with fewer than ``checkers`` checkers as already having
    borne one off, so a full build (15) gives the gammon race of a real game.
    """
    table = positions(checkers)
    succ = _successors(table)
    counts = table.sum(axis=1)
    off = _solve(table, succ, counts == 0, width=64)
    first = _solve(table, succ, counts < checkers, width=16)
    return Tables(_trim(off), _trim(first))


def _trim(dist: Probs) -> Probs:
    """Drop the trailing columns that are zero for every position."""
    if dist[:, -1].any():
        raise AssertionError("bear-off distribution wider than its table")
    used = np.flatnonzero(dist.any(axis=0))
    return dist[:, : int(used[-1]) + 1 if len(used) else 1]


def cache_dir() -> Path:
    override = os.environ.get("TAVOLA_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tavola"


def _cache_file() -> Path:
    return cache_dir() / f"bearoff-v{FORMAT}.npz"


@cache
def tables() -> Tables:
    """The full database: read from the cache file, or built and saved there.

    A cache that cannot be read or written is not an error: the tables are then built in
    memory (a few seconds), so the computer always plays.
    """
    path = _cache_file()
    with contextlib.suppress(OSError, KeyError, ValueError), np.load(path) as data:
        loaded = Tables(data["off"], data["first"])
        if loaded.off.shape[0] == size() and loaded.first.shape[0] == size():
            return loaded
    built = build()
    with contextlib.suppress(OSError):
        _save(path, built)
    return built


def _save(path: Path, built: Tables) -> None:
    """Write atomically: concurrent workers never read a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, off=built.off, first=built.first)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def all_home(checkers: Counts) -> Flags:
    """Rows whose checkers are all on points 1..6 or off ((n, 26) counts)."""
    c = np.asarray(checkers)
    home: Flags = c[:, OFF] + c[:, 1 : POINTS + 1].sum(axis=1) == CHECKERS
    return home


def expected_rolls(home: Counts) -> Probs:
    """Expected rolls to bear everything off, per row of (n, 6) home counts."""
    off = tables().off
    e: Probs = off[rank(home)] @ np.arange(off.shape[1])
    return e


def race_probs(variant: Variant, on: Counts, off: Counts) -> Probs:
    """Exact outcome vectors (``outcomes`` layout) for the side on roll, both sides home.

    I win when I need no more rolls than the opponent (I roll first); I win a gammon (mars)
    when I finish before the opponent bears off a checker, and lose one when the opponent
    finishes before I bear one off. Nobody can be backgammoned: no checker is left in the
    opponent's home or on the bar.
    """
    db = tables()
    on_idx = rank(np.asarray(on)[:, 1 : POINTS + 1])
    off_idx = rank(np.asarray(off)[:, 1 : POINTS + 1])
    mine, theirs = db.off[on_idx], db.off[off_idx]
    mine_first, theirs_first = db.first[on_idx], db.first[off_idx]
    k = len(variant.rules.big_results)
    p = np.zeros((len(on_idx), 2 * k + 1))
    p[:, 0] = (mine * _at_least(theirs, mine.shape[1])).sum(axis=1)
    p[:, 1] = (mine * _at_least(theirs_first, mine.shape[1])).sum(axis=1)
    # I lose a gammon when they finish in m rolls and I still need more than m to start.
    p[:, k + 1] = (theirs * _at_least(mine_first, theirs.shape[1], shift=1)).sum(axis=1)
    return p


def exact_where_home(variant: Variant, on: Counts, off: Counts, probs: Probs) -> Flags:
    """Put the exact outcome into the rows of ``probs`` where both sides are home, in
    place (``probs`` in the ``outcomes`` layout, for ``on`` to roll); return those rows."""
    home: Flags = all_home(on) & all_home(off)
    if home.any():
        probs[home] = race_probs(variant, on[home], off[home])
    return home


def _at_least(dist: Probs, width: int, shift: int = 0) -> Probs:
    """out[:, n] = P(X >= n + shift) for n < width, from distributions of X."""
    tail = np.cumsum(dist[:, ::-1], axis=1)[:, ::-1]  # tail[:, n] = P(X >= n)
    out = np.zeros((len(dist), width))
    cols = min(width, tail.shape[1] - shift)
    if cols > 0:
        out[:, :cols] = tail[:, shift : shift + cols]
    return out


def describe() -> dict[str, Any]:
    """Sizes of the database, for benchmarks and notes."""
    db = tables()
    return {
        "positions": db.off.shape[0],
        "max_rolls": db.off.shape[1] - 1,
        "max_rolls_first": db.first.shape[1] - 1,
        "cache_file": str(_cache_file()),
    }
