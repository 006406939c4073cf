"""Janowski's cube life (``engine.ai.cube``) for many positions at once, with numpy.

Why: the hint's and the analysis's cube trees (``cube_tree``, ``cube_root``) value every
leaf at every cube state with the cube's life, thousands of leaves per decision. Valued
one by one, each leaf rebuilt its ``View``, its chain of take points and its live curve
as Python objects, and that was most of a hint's time. Here the leaves of a node are
valued together: the score, the cube and whether each cash point exists are the same for
all of them (they depend on the aways and the cube, not on the chances), so only the
chances, the cash points and the curves are arrays, one row per leaf.

The values are those of ``engine.ai.cube`` exactly, to the last bit: every formula is
the same sequence of floating-point operations (sums in the same order, the same
interpolation as ``numpy.interp``, curves' knots sorted stably as ``list.sort`` does), so
a hint or an analysis ranks and decides exactly as with the one-by-one valuation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from engine.ai import cube
from engine.ai.arrays import Probs
from engine.game import MAX_CUBE
from engine.types import Variant

#: A knot of a live curve for every leaf: (winning chances, MWCs), one entry per leaf.
Knot = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True, slots=True)
class Leaves:
    """Positions seen by the side on roll, at one score: ``cube.View`` with arrays.

    ``wins`` and ``losses`` hold, per leaf, the shares of a win (a loss) worth 1, 2, ...
    points at cube 1, as columns (a leaf with no wins at all counts them all single, as
    ``cube.View`` does).
    """

    win: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    away: int
    opp_away: int
    crawford_done: bool
    x: np.ndarray
    scale: int = 1

    @classmethod
    def of(
        cls,
        variant: Variant,
        probs: Probs,
        away: int,
        opp_away: int,
        done: bool,
        x: np.ndarray,
        *,
        scale: int = 1,
    ) -> Leaves:
        """The leaves with cumulative results ``probs`` (a row each), as ``View.of``."""
        k = len(variant.rules.big_results)
        q = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
        win = q[:, 0]
        wins = _shares(win, q[:, 1 : k + 1])
        losses = _shares(1.0 - win, q[:, k + 1 : 2 * k + 1])
        return cls(win, wins, losses, away, opp_away, done, x, scale)

    def flipped(self) -> Leaves:
        return Leaves(
            1.0 - self.win,
            self.losses,
            self.wins,
            self.opp_away,
            self.away,
            self.crawford_done,
            self.x,
            self.scale,
        )

    def single(self) -> Leaves:
        """The same leaves with every result counting one point (``cubeful_jacoby``)."""
        one = np.zeros_like(self.wins)
        one[:, 0] = 1.0
        return replace(self, wins=one, losses=one)

    def met(self, away: int, opp_away: int) -> float:
        return cube.met(away, opp_away, self.crawford_done)

    def won(self, at: int) -> np.ndarray:
        """MWC when each leaf's side wins at cube ``at`` (``View.won``, summed in order)."""
        total = self.wins[:, 0] * self.met(self.away - at, self.opp_away)
        for i in range(1, self.wins.shape[1]):
            total = total + self.wins[:, i] * self.met(self.away - (i + 1) * at, self.opp_away)
        return total

    def lost(self, at: int) -> np.ndarray:
        """MWC when each leaf's side loses at cube ``at`` (``View.lost``)."""
        total = self.losses[:, 0] * self.met(self.away, self.opp_away - at)
        for i in range(1, self.losses.shape[1]):
            total = total + self.losses[:, i] * self.met(self.away, self.opp_away - (i + 1) * at)
        return total

    def dead(self, at: int, w: np.ndarray | None = None) -> np.ndarray:
        """MWC playing each game out at cube ``at`` with winning chances ``w``."""
        w = self.win if w is None else w
        result: np.ndarray = w * self.won(at) + (1.0 - w) * self.lost(at)
        return result

    def can_redouble(self, at: int) -> bool:
        """``View.can_redouble``: the same for every leaf (score and cube only)."""
        return 2 * at * self.scale <= MAX_CUBE and self.away > at


def _shares(total: np.ndarray, bigger: np.ndarray) -> np.ndarray:
    """``cube._split``'s conditional shares for every row: the cumulative ``bigger``
    results capped by the level below, as differences over ``total``."""
    levels = [total]
    for i in range(bigger.shape[1]):
        levels.append(np.minimum(levels[-1], bigger[:, i]))
    levels.append(np.zeros_like(total))
    empty = total <= 1e-9
    safe = np.where(empty, 1.0, total)
    shares = np.stack([(levels[i] - levels[i + 1]) / safe for i in range(len(levels) - 1)], axis=1)
    shares[empty] = 0.0
    shares[empty, 0] = 1.0
    return shares


def _curve(leaves: Leaves, at: int, middle: list[Knot | None]) -> tuple[np.ndarray, np.ndarray]:
    """``cube._curve`` for every leaf: the knots (xs, ys), a row per leaf, from losing
    everything at 0 to winning everything at 1, sorted stably on the winning chance."""
    knots = [k for k in middle if k is not None]
    n = len(leaves.win)
    xs = np.stack([np.zeros(n), *(k[0] for k in knots), np.ones(n)], axis=1)
    ys = np.stack([leaves.lost(at), *(k[1] for k in knots), leaves.won(at)], axis=1)
    order = np.argsort(xs, axis=1, kind="stable")
    return np.take_along_axis(xs, order, axis=1), np.take_along_axis(ys, order, axis=1)


def _interp(w: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``numpy.interp(w[i], xs[i], ys[i])`` for every row ``i``, as numpy computes it:
    the last knot at or below ``w``; its value where ``w`` is on it (or past the end),
    else ``slope * (w - x_j) + y_j``. (``w`` lies in [0, 1], the curve's ends.)"""
    m = xs.shape[1]
    j = (xs <= w[:, None]).sum(axis=1) - 1
    j = np.clip(j, 0, m - 1)
    nxt = np.minimum(j + 1, m - 1)
    x0 = np.take_along_axis(xs, j[:, None], axis=1)[:, 0]
    y0 = np.take_along_axis(ys, j[:, None], axis=1)[:, 0]
    x1 = np.take_along_axis(xs, nxt[:, None], axis=1)[:, 0]
    y1 = np.take_along_axis(ys, nxt[:, None], axis=1)[:, 0]
    on_knot = (j == m - 1) | (x0 == w)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (y1 - y0) / (x1 - x0)
        between = slope * (w - x0) + y0
    result: np.ndarray = np.where(on_knot, y0, between)
    return result


def _at_knots(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``numpy.interp(xs[i], xs[i], ys[i])`` for every row: each knot's value is that of
    the last knot at the same winning chance (numpy reads the last of equal knots)."""
    found = ys.copy()
    for j in range(xs.shape[1] - 2, -1, -1):
        found[:, j] = np.where(xs[:, j] == xs[:, j + 1], found[:, j + 1], ys[:, j])
    return found


def _value(leaves: Leaves, at: int, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``cube._value`` at each leaf's own winning chance."""
    w = leaves.win
    live = _interp(w, xs, ys)
    result: np.ndarray = leaves.x * live + (1.0 - leaves.x) * leaves.dead(at, w)
    return result


def take_point(taker: Leaves, at: int) -> np.ndarray:
    """``cube.take_point`` for every leaf: the least winning chance at which the taker
    takes a double to ``at``, solved on the segment of its live curve that crosses the drop."""
    drop = taker.met(taker.away, taker.opp_away - at // 2)
    xs, ys = _owned(taker, at)
    won, lost = taker.won(at), taker.lost(at)
    values = taker.x[:, None] * _at_knots(xs, ys) + (1.0 - taker.x)[:, None] * (
        xs * won[:, None] + (1.0 - xs) * lost[:, None]
    )
    n = len(taker.win)
    found = values[:, 0] >= drop
    result = np.where(found, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(xs.shape[1] - 1):
            w0, w1 = xs[:, j], xs[:, j + 1]
            v0, v1 = values[:, j], values[:, j + 1]
            crossing = ~found & (v1 >= drop)
            solved = np.where(v1 > v0, w0 + (w1 - w0) * (drop - v0) / (v1 - v0), w1)
            result = np.where(crossing, solved, result)
            found = found | crossing
    assert result.shape == (n,)
    return result


def _cash_knot(leaves: Leaves, at: int) -> Knot | None:
    """``cube._cash_knot``: where each leaf's side cashes by doubling from ``at``."""
    if not leaves.can_redouble(at):
        return None
    w = 1.0 - take_point(leaves.flipped(), 2 * at)
    cash = leaves.met(leaves.away - at, leaves.opp_away)
    return w, np.maximum(cash, leaves.dead(at, w))


def _dropped_knot(leaves: Leaves, at: int) -> Knot | None:
    """``cube._dropped_knot``: where the other side cashes, in this side's terms."""
    other = _cash_knot(leaves.flipped(), at)
    if other is None:
        return None
    return 1.0 - other[0], 1.0 - other[1]


def _owned(leaves: Leaves, at: int) -> tuple[np.ndarray, np.ndarray]:
    return _curve(leaves, at, [_cash_knot(leaves, at)])


def cubeful(leaves: Leaves, at: int, owner: cube.Owner) -> np.ndarray:
    """``cube.cubeful`` for every leaf."""
    if owner is cube.Owner.ME:
        xs, ys = _owned(leaves, at)
    elif owner is cube.Owner.OPPONENT:
        xs, ys = _curve(leaves, at, [_dropped_knot(leaves, at)])
    else:
        xs, ys = _curve(leaves, at, [_dropped_knot(leaves, at), _cash_knot(leaves, at)])
    return _value(leaves, at, xs, ys)


def cubeful_jacoby(leaves: Leaves, at: int) -> np.ndarray:
    """``cube.cubeful_jacoby`` for every leaf: the cash points see the gammons, the
    curve's values count every result one point."""
    single = leaves.single()
    n = len(leaves.win)
    middle: list[Knot | None] = []
    cash = _cash_knot(leaves, at)
    if cash is not None:
        middle.append((cash[0], np.full(n, single.met(single.away - at, single.opp_away))))
    dropped = _dropped_knot(leaves, at)
    if dropped is not None:
        middle.append((dropped[0], np.full(n, single.met(single.away, single.opp_away - at))))
    xs, ys = _curve(single, at, middle)
    return _value(single, at, xs, ys)


@dataclass(frozen=True, slots=True)
class Futures:
    """``cube.CubeAnalysis`` for every leaf (no double, double/take as arrays)."""

    no_double: np.ndarray
    double_take: np.ndarray
    double_pass: float
    pointless: bool

    @property
    def double(self) -> np.ndarray:
        """``CubeAnalysis.double`` per leaf."""
        if self.pointless:
            return np.zeros(len(self.no_double), dtype=bool)
        found: np.ndarray = np.minimum(self.double_take, self.double_pass) > (self.no_double - 1e-9)
        return found


def analyse(leaves: Leaves, at: int, centred: bool) -> Futures:
    """``cube.analyse`` for every leaf."""
    owner = cube.Owner.CENTRE if centred else cube.Owner.ME
    return Futures(
        no_double=cubeful(leaves, at, owner),
        double_take=cubeful(leaves, 2 * at, cube.Owner.OPPONENT),
        double_pass=leaves.met(leaves.away - at, leaves.opp_away),
        pointless=leaves.away <= at,
    )
