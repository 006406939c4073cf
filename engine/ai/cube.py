"""Cube decisions and what a game is worth, in match-winning chance (MWC).

Three ideas from the literature, each in its own part of this module:

1. **The match equity table** is Neil Kazaross's *Kazaross-XG2* (2011: eXtreme Gammon
   rollouts to 9-away, GNU Backgammon rollouts to 15-away, extended to 25-away), transcribed
   in ``met_table.py``: pre-Crawford up to 25-away, and the trailer's chances after the
   Crawford game (free drop included). The engine allows matches of up to 64 points; when
   both sides need more than the table holds, a match is treated as a random walk of many
   games, so the leader's chance is the normal probability
   ``Phi((b - a) / (sigma * sqrt(a + b)))``, with ``sigma`` fitted to the table's own long
   entries (``_fitted_sigma``); when only one side does, the table's last column is carried
   on with the trailer's chance shrinking as the walk's does, which keeps the whole table
   symmetric and monotone. Post-Crawford entries beyond 25 continue the table's own ratio
   from two points shorter.
2. **Gammon values by score** (``gammon_value``): what winning a gammon adds over a single
   win, per swing between winning and losing a single game (Woolsey's definition), read
   from the table. Decisions use no fixed value: every result is valued by where it leaves
   the match.
3. **Cube life** after Rick Janowski ("Take-Points in Money Games", 1993), carried over to
   match play: the value of a position is ``x * live + (1 - x) * dead``. *Dead* plays the
   game out at the current cube; *live* is the perfectly efficient cube, a piecewise-linear
   function of the winning chance through the points where each side would cash (the other
   side's take point, found recursively up the cube values: a take owns a cube that can be
   redoubled later). ``x``, the cube efficiency, is Janowski's 0.68 in contact; races have
   fewer market losers when short and more cube leverage when long, so ``x`` grows with the
   race's length (``cube_efficiency``). At long even scores the model gives back
   Janowski's money take point ``(L - 1/2) / (W + L + x/2)`` (W and L the average value of
   a win and of a loss).

Money play is valued as a long match at an even score (``MONEY_AWAY`` each), which plays
almost like money, so the same model covers it. Money play scales with the stake, so the
valuation always sees a money cube as 1 (``View.scale`` keeps the real cube for its limit):
a long match would instead end at a cube near its length, and the computer could not
redouble to the money cube's limit; the Jacoby rule enters through the
cubeless equity (gammons count 1 while the cube is centred), and there are no beavers.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache, lru_cache
from statistics import NormalDist

import numpy as np

from engine.ai.arrays import Counts, Probs
from engine.ai.met_table import POST_CRAWFORD, PRE_CRAWFORD
from engine.ai.race import is_race, no_contact
from engine.board import Checkers
from engine.game import MAX_CUBE
from engine.types import Side, Variant

TABLE_LENGTH = len(PRE_CRAWFORD)
#: Both sides' checkers, each in its own numbering.
Board = tuple[Checkers, Checkers]

#: Janowski's cube efficiency for contact positions.
CONTACT_EFFICIENCY = 0.68
#: Race efficiency, from a short race (at most ``SHORT_RACE`` pips for the side on roll) to
#: a long one (``LONG_RACE`` pips or more), linear in between.
SHORT_RACE, SHORT_RACE_EFFICIENCY = 40, 0.60
LONG_RACE, LONG_RACE_EFFICIENCY = 130, 0.72


# --------------------------------------------------------------------- the table
_NORMAL = NormalDist()


#: The score a money game is valued at: a long match at even score plays almost like money.
MONEY_AWAY = 25


@cache
def _fitted_sigma() -> float:
    """The per-point spread of the random walk that best fits the table's long entries.

    Each entry, read as a normal probability, gives ``z = (b - a) / (sigma * sqrt(a + b))``:
    a least-squares line through the origin gives ``1 / sigma``.
    """
    zs, ts = [], []
    for a in range(11, TABLE_LENGTH + 1):
        for b in range(11, TABLE_LENGTH + 1):
            if a != b:
                zs.append(_NORMAL.inv_cdf(PRE_CRAWFORD[a - 1][b - 1]))
                ts.append((b - a) / math.sqrt(a + b))
    return sum(t * t for t in ts) / sum(z * t for z, t in zip(zs, ts, strict=True))


def _post_crawford(trailer: int) -> float:
    """The trailer's chance needing ``trailer`` points, the leader needing 1, post-Crawford."""
    if trailer <= TABLE_LENGTH:
        return POST_CRAWFORD[trailer - 1]
    step = POST_CRAWFORD[TABLE_LENGTH - 1] / POST_CRAWFORD[TABLE_LENGTH - 3]
    return _post_crawford(trailer - 2) * step


def _walk(a: int, b: int) -> float:
    """The random-walk approximation of needing ``a`` points against ``b``."""
    return _NORMAL.cdf((b - a) / (_fitted_sigma() * math.sqrt(a + b)))


def _pre_crawford(a: int, b: int) -> float:
    if a <= TABLE_LENGTH and b <= TABLE_LENGTH:
        return PRE_CRAWFORD[a - 1][b - 1]
    if a > TABLE_LENGTH and b > TABLE_LENGTH:
        return _walk(a, b)
    if a > TABLE_LENGTH:
        return 1.0 - _pre_crawford(b, a)
    # Only the opponent is beyond the table: the table's last column, with the trailer's
    # chance shrinking as the random walk's does from there.
    edge = TABLE_LENGTH
    return 1.0 - (1.0 - PRE_CRAWFORD[a - 1][edge - 1]) * (1.0 - _walk(a, b)) / (
        1.0 - _walk(a, edge)
    )


@cache
def met(away_me: int, away_opp: int, crawford_done: bool) -> float:
    """Probability of winning the match needing ``away_me`` points against ``away_opp``.

    ``crawford_done``: the Crawford game has been played, so a side needing 1 point faces a
    cube again (the post-Crawford table); before it, 1-away reads the Crawford game's row.
    """
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    if away_me == 1 and away_opp == 1:
        return 0.5
    if crawford_done and away_me == 1:
        return 1.0 - _post_crawford(away_opp)
    if crawford_done and away_opp == 1:
        return _post_crawford(away_me)
    return _pre_crawford(away_me, away_opp)


def gammon_value(away_me: int, away_opp: int, cube: int, crawford_done: bool) -> float:
    """What a gammon win adds to a single win at ``cube``, per single-game swing.

    Money play's value is 1/2 (a gammon adds one point to a two-point swing); at match
    scores it is 0 when a single win already takes the match, and higher when the extra
    point brings the end much closer (about 0.9 at 2-away/2-away).
    """
    win = met(away_me - cube, away_opp, crawford_done)
    gammon = met(away_me - 2 * cube, away_opp, crawford_done)
    lose = met(away_me, away_opp - cube, crawford_done)
    return (gammon - win) / (win - lose) if win > lose else 0.0


# ----------------------------------------------------------------- positions
def cube_efficiency(on: Checkers, off: Checkers) -> float:
    """Janowski's ``x`` for the position of ``on`` (about to roll) against ``off``."""
    # The cube model is classic's (long's resignations borrow it), and so is its race test.
    if not is_race(Variant.CLASSIC, on, off):
        return CONTACT_EFFICIENCY
    pips = sum(i * on[i] for i in range(1, 26))
    share = min(1.0, max(0.0, (pips - SHORT_RACE) / (LONG_RACE - SHORT_RACE)))
    return SHORT_RACE_EFFICIENCY + share * (LONG_RACE_EFFICIENCY - SHORT_RACE_EFFICIENCY)


def cube_efficiencies(on: Counts, off: Counts) -> np.ndarray:
    """``cube_efficiency`` of many positions at once (rows of ``on`` about to roll)."""
    on, off = np.asarray(on), np.asarray(off)
    race = no_contact(Variant.CLASSIC, on, off)
    pips = on[:, 1:26] @ np.arange(1, 26)
    share = np.clip((pips - SHORT_RACE) / (LONG_RACE - SHORT_RACE), 0.0, 1.0)
    in_race = SHORT_RACE_EFFICIENCY + share * (LONG_RACE_EFFICIENCY - SHORT_RACE_EFFICIENCY)
    found: np.ndarray = np.where(race, in_race, CONTACT_EFFICIENCY)
    return found


@dataclass(frozen=True, slots=True)
class View:
    """A game seen by one side: its chances and the score, everything the cube needs.

    ``wins`` and ``losses`` split a win (a loss) into its results: (share, points at cube 1).
    """

    win: float
    wins: tuple[tuple[float, int], ...]
    losses: tuple[tuple[float, int], ...]
    away: int
    opp_away: int
    crawford_done: bool
    x: float
    #: The real cube per valued cube unit. Money play scales with the stake, so a money game
    #: is valued at cube 1 whatever the cube shows; only the cube limit still sees the real
    #: cube (``can_redouble``).
    scale: int = 1

    @classmethod
    def of(
        cls,
        variant: Variant,
        p: Probs,
        away: int,
        opp_away: int,
        done: bool,
        x: float,
        *,
        scale: int = 1,
    ) -> View:
        wins, losses = _split(variant, p)
        win = min(1.0, max(0.0, float(p[0])))
        return cls(win, wins, losses, away, opp_away, done, x, scale)

    def flipped(self) -> View:
        return View(
            1.0 - self.win,
            self.losses,
            self.wins,
            self.opp_away,
            self.away,
            self.crawford_done,
            self.x,
            self.scale,
        )

    def met(self, away: int, opp_away: int) -> float:
        return met(away, opp_away, self.crawford_done)

    def won(self, cube: int) -> float:
        """MWC when this side wins at ``cube``, its results in the position's proportions."""
        return sum(s * self.met(self.away - n * cube, self.opp_away) for s, n in self.wins)

    def lost(self, cube: int) -> float:
        """MWC when this side loses at ``cube``, its losses in the position's proportions."""
        return sum(s * self.met(self.away, self.opp_away - n * cube) for s, n in self.losses)

    def dead(self, cube: int, w: float | None = None) -> float:
        """MWC playing the game out at ``cube`` (with winning chance ``w``, default its own)."""
        w = self.win if w is None else w
        return w * self.won(cube) + (1.0 - w) * self.lost(cube)

    def can_redouble(self, cube: int) -> bool:
        """Owning ``cube``, could this side ever gain by turning it?"""
        return 2 * cube * self.scale <= MAX_CUBE and self.away > cube


def _split(
    variant: Variant, p: Probs
) -> tuple[tuple[tuple[float, int], ...], tuple[tuple[float, int], ...]]:
    """Cumulative outcome probabilities as conditional shares of wins and of losses."""
    k = len(variant.rules.big_results)
    q = [min(1.0, max(0.0, float(v))) for v in p]
    win, lose = q[0], 1.0 - q[0]

    def shares(total: float, bigger: list[float]) -> tuple[tuple[float, int], ...]:
        if total <= 1e-9:
            return ((1.0, 1),)
        levels = [total]
        for at_least in bigger:
            levels.append(min(levels[-1], at_least))
        levels.append(0.0)
        return tuple(((levels[i] - levels[i + 1]) / total, i + 1) for i in range(k + 1))

    return shares(win, q[1 : k + 1]), shares(lose, q[k + 1 : 2 * k + 1])


# ----------------------------------------------------------------- cube life
Knots = list[tuple[float, float]]


def _value(view: View, cube: int, live: Knots, w: float | None = None) -> float:
    """Janowski's mix of the live curve and the dead cube at winning chance ``w``."""
    w = view.win if w is None else w
    xs, ys = zip(*live, strict=True)
    return view.x * float(np.interp(w, xs, ys)) + (1.0 - view.x) * view.dead(cube, w)


@lru_cache(maxsize=4096)  # one decision asks for the same chain of take points repeatedly
def take_point(taker: View, cube: int) -> float:
    """The least winning chance at which ``taker`` takes a double to ``cube`` (then owns it)."""
    drop = taker.met(taker.away, taker.opp_away - cube // 2)
    live = _owned(taker, cube)
    # The value is piecewise linear in w, with the live curve's knots: find the segment
    # where it crosses the drop and solve on it.
    # (``_value`` at every knot at once: the same arithmetic, one interpolation call and
    # the dead cube's two ends computed once; a hint's search asks this thousands of times.)
    xs, ys = zip(*live, strict=True)
    ws = np.array(xs)
    won, lost = taker.won(cube), taker.lost(cube)
    values = taker.x * np.interp(ws, xs, ys) + (1.0 - taker.x) * (ws * won + (1.0 - ws) * lost)
    points: list[tuple[float, float]] = list(zip(xs, values.tolist(), strict=True))
    if points[0][1] >= drop:
        return 0.0
    for (w0, v0), (w1, v1) in itertools.pairwise(points):
        if v1 >= drop:
            return w0 + (w1 - w0) * (drop - v0) / (v1 - v0) if v1 > v0 else w1
    return 1.0


def _cash_knot(view: View, cube: int) -> tuple[float, float] | None:
    """Where this side cashes by doubling from ``cube``: (winning chance, MWC), if ever."""
    if not view.can_redouble(cube):
        return None
    w = 1.0 - take_point(view.flipped(), 2 * cube)
    return w, max(view.met(view.away - cube, view.opp_away), view.dead(cube, w))


def _dropped_knot(view: View, cube: int) -> tuple[float, float] | None:
    """Where the other side cashes by doubling from ``cube``, in this side's terms."""
    other = _cash_knot(view.flipped(), cube)
    if other is None:
        return None
    return 1.0 - other[0], 1.0 - other[1]


def _curve(view: View, cube: int, middle: list[tuple[float, float] | None]) -> Knots:
    """The live cube's MWC against the winning chance: from losing everything at 0 to
    winning everything at 1, through the cash points that exist."""
    knots = [(0.0, view.lost(cube)), *(k for k in middle if k is not None), (1.0, view.won(cube))]
    knots.sort(key=lambda k: k[0])
    return knots


def _owned(view: View, cube: int) -> Knots:
    """The live curve of the side that owns ``cube``: only it can cash."""
    return _curve(view, cube, [_cash_knot(view, cube)])


class Owner(Enum):
    """Who holds the cube, seen from the side the value is computed for."""

    CENTRE = "centre"
    ME = "me"
    OPPONENT = "opponent"


def owner_seen_by(holder: Side | None, side: Side) -> Owner:
    """Who holds the cube (``holder``: a side, or None when centred), seen from ``side``."""
    if holder is None:
        return Owner.CENTRE
    return Owner.ME if holder is side else Owner.OPPONENT


def cubeful(view: View, cube: int, owner: Owner) -> float:
    """The side's MWC with the cube live at ``cube`` (before any cube action this turn)."""
    if owner is Owner.ME:
        knots = _owned(view, cube)
    elif owner is Owner.OPPONENT:
        knots = _curve(view, cube, [_dropped_knot(view, cube)])
    else:
        knots = _curve(view, cube, [_dropped_knot(view, cube), _cash_knot(view, cube)])
    return _value(view, cube, knots)


def cubeful_jacoby(view: View, cube: int) -> float:
    """The side's MWC with the cube centred under the Jacoby rule (money play, before any
    cube action this turn): gammons count only once the cube is turned.

    The cube is what gives the gammons their value: playing the game out with the cube
    in the middle wins or loses one point whatever the result (the dead part, and the ends
    of the live curve), but where a side doubles, its opponent answers with the gammons
    counting, so each side's cash point is where the chances, gammons included, make the
    other pass, and a cash is worth one point. ``view`` holds the chances with their
    gammons; without any (``wins``/``losses`` all single) this is ``cubeful`` of a centred
    cube.
    """
    single = replace(view, wins=((1.0, 1),), losses=((1.0, 1),))
    middle: list[tuple[float, float] | None] = []
    cash = _cash_knot(view, cube)
    if cash is not None:
        middle.append((cash[0], single.met(single.away - cube, single.opp_away)))
    dropped = _dropped_knot(view, cube)
    if dropped is not None:
        middle.append((dropped[0], single.met(single.away, single.opp_away - cube)))
    return _value(single, cube, _curve(single, cube, middle))


class CubeAction(Enum):
    """The proper cube action, as the literature names it (no beaver: the rules have none)."""

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD = "too good to double"  # the opponent would pass, but playing on is worth more


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """The three futures of a cube decision, in the doubler's MWC."""

    no_double: float
    double_take: float
    double_pass: float
    #: A win at the current cube already takes the match: turning it cannot gain.
    pointless: bool = False

    @property
    def take(self) -> bool:
        """Would the opponent take? (They take when it costs them no more than passing.)"""
        return self.double_take <= self.double_pass

    @property
    def double(self) -> bool:
        """Is doubling right? Not when playing on is worth more: too good, or too early.

        A tie goes to the double: it is a cash that ends the game at no cost.
        """
        if self.pointless:
            return False
        return min(self.double_take, self.double_pass) > self.no_double - 1e-9

    @property
    def action(self) -> CubeAction:
        if self.double:
            return CubeAction.DOUBLE_TAKE if self.take else CubeAction.DOUBLE_PASS
        if not self.take and not self.pointless:
            return CubeAction.TOO_GOOD
        return CubeAction.NO_DOUBLE


def analyse(view: View, cube: int, centred: bool) -> CubeAnalysis:
    """Compare no double, double/take and double/pass for ``view``, on roll at ``cube``."""
    owner = Owner.CENTRE if centred else Owner.ME
    return CubeAnalysis(
        no_double=cubeful(view, cube, owner),
        double_take=cubeful(view, 2 * cube, Owner.OPPONENT),
        double_pass=view.met(view.away - cube, view.opp_away),
        pointless=view.away <= cube,
    )


def should_take(
    variant: Variant,
    p_taker: Probs,
    cube: int,
    a: int,
    b: int,
    done: bool,
    *,
    efficiency: float = CONTACT_EFFICIENCY,
) -> bool:
    """Take a double to ``2 * cube`` with outcome probabilities ``p_taker`` (taker's view).

    ``a`` and ``b`` are the points the taker and the doubler still need.
    """
    taker = View.of(variant, p_taker, a, b, done, efficiency)
    return cubeful(taker, 2 * cube, Owner.ME) >= taker.met(a, b - cube)


def should_double(
    variant: Variant,
    p: Probs,
    cube: int,
    a: int,
    b: int,
    done: bool,
    *,
    centred: bool = True,
) -> bool:
    """Offer a double with outcome probabilities ``p`` (doubler's view, on roll, cube
    efficiency of a contact position; ``analyse`` takes any view).

    ``a`` and ``b`` are the points the doubler and the opponent still need.
    """
    if 2 * cube > MAX_CUBE:
        return False
    return analyse(View.of(variant, p, a, b, done, CONTACT_EFFICIENCY), cube, centred).double


def mwc(variant: Variant, p: Probs, cube: int, a: int, b: int, done: bool) -> float:
    """Match-winning chance if the game is played out at ``cube`` (dead cube)."""
    return View.of(variant, p, a, b, done, 0.0).dead(cube)
