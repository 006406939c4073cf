"""What the opponent's next roll does to a side's blots, counted over all 36 rolls at once.

Three numbers per position, for the side ``me`` whose blots stand exposed to ``them``
(who rolls next): the chance of at least one hit, the chance of two blots hit in the same
roll, and the pips lost to hits on average (a hit checker goes back to the bar; the
opponent is assumed to hit the most advanced blot, the one that costs most). GNU
Backgammon's published input design gives these three to its networks, because a small
network does not learn to count shots by itself.

Each row is packed into 25-bit masks in ``me``'s numbering, bit r for my point r (bit 0
the opponent's bar): where opposing checkers stand, which points are open to them (not
held by me), where my blots are. The opponent travels towards my higher numbers, so
shifting its mask left by ``d`` gives the points its checkers reach with a ``d``; a
combined move also needs an open intermediate landing. All rows and all 21 rolls are a
few integer operations on (rows, rolls) arrays. Simplifications: the bar's entering
obligation is left out, and a double hit counts two blots reached in the same roll as if
they were reached by different checkers where the dice allow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.ai.arrays import Counts, Floats

#: Non-double rolls as two arrays of dice (each roll happens two ways out of 36), and the
#: doubles' die.
_DIE_A = np.array([a for a in range(1, 7) for b in range(1, a)], dtype=np.int64)
_DIE_B = np.array([b for a in range(1, 7) for b in range(1, a)], dtype=np.int64)
_DOUBLE = np.arange(1, 7, dtype=np.int64)
#: Bit r stands for my point r (0 = the opponent's bar): powers of two for packing rows.
_BITS = 1 << np.arange(25, dtype=np.int64)
#: My points 1..24, where blots can be hit.
_POINT_BITS = int(_BITS[1:].sum())


@dataclass(frozen=True, slots=True)
class Shots:
    """Per row: P(at least one blot hit), P(two blots hit), expected pips lost."""

    hit: Floats
    double_hit: Floats
    pip_loss: Floats


def _pips_lost(hits: Counts) -> Counts:
    """Pips lost when the most advanced hit blot (lowest bit) goes back: 25 - point."""
    low = hits & -hits
    point = np.bitwise_count(np.where(hits != 0, low - 1, 0))
    lost: Counts = np.where(hits != 0, 25 - point, 0)
    return lost


def shots(me: Counts, them: Counts) -> Shots:
    """The shots at ``me``'s blots from ``them``, rolling next (both (n, 26), own numbering)."""
    n = me.shape[0]
    hit = np.zeros(n, dtype=np.float32)
    double_hit = np.zeros(n, dtype=np.float32)
    pip_loss = np.zeros(n, dtype=np.float32)
    blot = (me[:, 1:25] == 1) @ _BITS[1:]
    rows = np.flatnonzero(blot)
    if not rows.size:
        return Shots(hit, double_hit, pip_loss)
    blot = blot[rows]
    me, them = me[rows], them[rows]
    opp_at = np.concatenate([them[:, 25:26], them[:, 24:0:-1]], axis=1) > 0
    opp = opp_at @ _BITS
    open_ = 1 | ((me[:, 1:25] < 2) @ _BITS[1:])
    opp, open_, blot = opp[:, None], open_[:, None], blot[:, None]  # rolls along axis 1

    a, b = _DIE_A, _DIE_B
    hit_a, hit_b = (opp << a) & blot, (opp << b) & blot
    via = (open_ << a) | (open_ << b)
    hits = hit_a | hit_b | ((opp << (a + b)) & via & blot)
    # Two blots: one reached with each die, or one checker hitting and moving on to hit.
    two = ((hit_a != 0) & (hit_b != 0) & (np.bitwise_count(hit_a | hit_b) >= 2)) | (
        ((hit_a << b) | (hit_b << a)) & blot != 0
    )

    d = _DOUBLE
    path = open_ << d
    reach = (opp << d) | ((opp << 2 * d) & path)
    path &= open_ << 2 * d
    reach |= (opp << 3 * d) & path
    reach |= (opp << 4 * d) & path & (open_ << 3 * d)
    hits_d = reach & blot & _POINT_BITS
    two_d = np.bitwise_count(hits_d) >= 2

    hit[rows] = (2 * (hits != 0).sum(axis=1) + (hits_d != 0).sum(axis=1)) / 36.0
    double_hit[rows] = (2 * two.sum(axis=1) + two_d.sum(axis=1)) / 36.0
    lost = 2 * _pips_lost(hits).sum(axis=1) + _pips_lost(hits_d).sum(axis=1)
    pip_loss[rows] = lost / 36.0
    return Shots(hit, double_hit, pip_loss)
