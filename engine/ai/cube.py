"""Cube decisions from winning and gammon chances, in match-winning-chance terms.

The match equity table (MET) is computed, not typed: a cubeless model where each game is
even and a fixed share of wins are gammons, with the Crawford game played without cube and
the trailer doubling at once after it. It is rough but has the right shape, and it makes
every decision respect the score: a gammon that cannot matter is worth nothing, a cube that
already wins the match is dead, and the trailer doubles early post-Crawford.

Decisions compare three futures of the game, each valued with the MET:
no double (the cube stays), double/take (cube doubled, owned by the taker) and double/pass.
Cube ownership is worth something that a dead-cube valuation misses; ``OWNERSHIP`` and
``ACCESS`` (fractions of the swing between winning and losing the doubled stake) stand in
for it, tuned so that a gammonless money-like race doubles from about 68% and takes down
to about 21.5%, the textbook figures.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.ai.arrays import Probs
from engine.ai.outcomes import flip
from engine.types import Variant

GAMMON_SHARE = 0.26  # share of wins that are gammons, for the table
OWNERSHIP = 0.035  # value of owning the cube for the taker (recube vig)
ACCESS = 0.045  # value of keeping cube access for the doubler


@cache
def met(away_me: int, away_opp: int, crawford_done: bool) -> float:
    """Probability of winning the match needing ``away_me`` points against ``away_opp``."""
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    if away_me == 1 and away_opp == 1:
        return 0.5
    if away_me == 1 or away_opp == 1:
        if not crawford_done:
            return _game(away_me, away_opp, True, 1)  # the Crawford game: no cube
        return _game(away_me, away_opp, True, 2)  # post-Crawford: the trailer doubles
    return _game(away_me, away_opp, crawford_done, 1)


def _game(a: int, b: int, done: bool, cube: int) -> float:
    g = GAMMON_SHARE
    win = (1 - g) * met(a - cube, b, done) + g * met(a - 2 * cube, b, done)
    lose = (1 - g) * met(a, b - cube, done) + g * met(a, b - 2 * cube, done)
    return 0.5 * (win + lose)


def _outcome_points(variant: Variant, p: Probs) -> list[tuple[float, int]]:
    """(probability, signed points at cube 1) of each way the game can end."""
    k = len(variant.rules.big_results)
    q = [float(v) for v in p]
    win = q[0]
    wins, losses = q[1 : k + 1], q[k + 1 : 2 * k + 1]
    out = [(win - wins[0], 1)]
    out += [(wins[i - 1] - wins[i], i + 1) for i in range(1, k)]
    out.append((wins[-1], k + 1))
    out.append((1 - win - losses[0], -1))
    out += [(losses[i - 1] - losses[i], -(i + 1)) for i in range(1, k)]
    out.append((losses[-1], -(k + 1)))
    return out


def mwc(variant: Variant, p: Probs, cube: int, a: int, b: int, done: bool) -> float:
    """Match-winning chance if the game is played out at ``cube`` (dead cube)."""
    total = 0.0
    for prob, pts in _outcome_points(variant, p):
        if pts > 0:
            total += prob * met(a - pts * cube, b, done)
        else:
            total += prob * met(a, b + pts * cube, done)
    return total


def _ownership_value(away_owner: int, away_other: int, cube: int, done: bool) -> float:
    """What owning a cube at ``cube`` is worth to its owner, in match-winning chance."""
    if away_owner <= cube:
        return 0.0  # any win at this cube already ends the match: no use for a redouble
    swing = met(away_owner - cube, away_other, done) - met(away_owner, away_other - cube, done)
    return OWNERSHIP * swing


def should_take(variant: Variant, p_taker: Probs, cube: int, a: int, b: int, done: bool) -> bool:
    """Take a double to ``2 * cube`` with outcome probabilities ``p_taker`` (taker's view).

    ``a`` and ``b`` are the points the taker and the doubler still need.
    """
    take = mwc(variant, p_taker, 2 * cube, a, b, done) + _ownership_value(a, b, 2 * cube, done)
    drop = met(a, b - cube, done)
    return take >= drop


def should_double(variant: Variant, p: Probs, cube: int, a: int, b: int, done: bool) -> bool:
    """Offer a double with outcome probabilities ``p`` (doubler's view, on roll).

    ``a`` and ``b`` are the points the doubler and the opponent still need.
    """
    no_double = mwc(variant, p, cube, a, b, done)
    cash = met(a - cube, b, done)
    p_opp = flip(variant, np.asarray(p, dtype=np.float64))
    opp_takes = should_take(variant, p_opp, cube, b, a, done)
    if not opp_takes:
        return cash >= no_double - 1e-9  # they would drop: cash unless playing on is better
    take = mwc(variant, p, 2 * cube, a, b, done) - _ownership_value(b, a, 2 * cube, done)
    swing = met(a - 2 * cube, b, done) - met(a, b - 2 * cube, done)
    return take > no_double + ACCESS * swing
