"""How hard it is for a checker to get past the points the other side holds in front of it.

GNU Backgammon's published input design measures this with one table: for a checker and the
twelve points in front of it (held or not by the opponent), the number of rolls out of 36
with which it can move the whole roll, landing on an open point with an open point on the
way (a double: twice its die). Two inputs per side are read from it here: the escapes of the
side's rearmost checker (how trapped its back checkers are), and the containment it imposes:
the fewest escapes of an opposing checker standing on the bar or on the side's first ten
points, whether or not one is there, and the same over the points where one is.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.ai.arrays import Counts, Flags, Floats
from engine.ai.race import rear

_WINDOW = 12
_MASK = (1 << _WINDOW) - 1


@cache
def escape_table() -> Counts:
    """Rolls out of 36 that carry a checker its whole roll, per 12-bit mask of held points.

    Bit k of the mask is the point k + 1 pips ahead.
    """
    table = np.zeros(1 << _WINDOW, dtype=np.int64)
    for mask in range(1 << _WINDOW):

        def free(pips: int, mask: int = mask) -> bool:
            return not mask >> (pips - 1) & 1

        count = 0
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                count += free(d1 + d2) and (free(d1) or free(d2))
        table[mask] = count
    return table


#: Bit r for my point r, 1..24 (``held_points``).
_POINT_BITS = 1 << np.arange(1, 25, dtype=np.int64)
#: Where the window ahead of each of my points 0..9 starts in ``held_points``.
_CONTAIN_SHIFTS = np.arange(1, 11, dtype=np.int64)


def held_points(side: Counts) -> Counts:
    """Bit r set where ``side`` holds its point r (two or more checkers), r in 1..24."""
    return held_bits(side[:, 1:25] >= 2)


def held_bits(made: Flags) -> Counts:
    """``held_points`` from the (n, 24) flags of the points held (the encoder has them)."""
    held: Counts = made @ _POINT_BITS
    return held


def held_ahead(me: Counts, them: Counts) -> Counts:
    """The 12-bit mask of ``them``'s held points in front of ``me``'s rearmost checker.

    Bit k is the point k + 1 pips ahead (off the board counts as open): the table's
    index, and what the version-2 inputs read as how open the way out is.
    """
    return window_ahead(held_points(them), rear(me))


def window_ahead(held_them: Counts, rear_me: Counts) -> Counts:
    """``held_ahead`` from the opponent's ``held_points`` and my ``rear`` (the encoder has
    both already)."""
    # The twelve points ahead of my point r are my r - 1 .. r - 12; my point p is the
    # opponent's point 25 - p, so with the opponent's held points as bits of its own
    # numbering, point r - 1 - k is bit 26 - r + k: one shift gives the window.
    ahead: Counts = (held_them >> (26 - rear_me)) & _MASK
    return ahead


def back_escapes(ahead: Counts) -> Floats:
    """Escapes of a rearmost checker with ``ahead`` (``held_ahead``) in front, as a fraction."""
    escapes: Floats = (escape_table()[ahead] / 36.0).astype(np.float32)
    return escapes


def containment(me: Counts, them: Counts) -> tuple[Floats, Floats]:
    """How well ``me`` holds in the opponent's checkers that still have to come round.

    The opponent's checker on my point r (r = 0: its bar) travels to my higher points; its
    twelve points ahead are my r + 1 .. r + 12. Returns 1 - the fewest escapes over my
    points 0..9 (its bar, my home board and the start of my outer board, where its back
    checkers stand), and the same over those points where an opposing checker stands (0
    where none does).
    """
    return containment_of(held_points(me), them)


def containment_of(held_me: Counts, them: Counts) -> tuple[Floats, Floats]:
    """``containment`` from my ``held_points`` (the encoder has them already)."""
    # Opposing checkers on my point r: their point 25 - r (their bar for r = 0).
    present = them[:, 25:15:-1] > 0  # my points 0..9
    # The window ahead of my point r starts at bit r + 1: all ten in one lookup.
    escapes = escape_table()[(held_me[:, None] >> _CONTAIN_SHIFTS) & _MASK]
    contain = 1.0 - escapes.min(axis=1) / 36.0
    where = np.where(present, escapes, 36)
    actual = np.where(present.any(axis=1), 1.0 - where.min(axis=1) / 36.0, 0.0)
    return contain.astype(np.float32), actual.astype(np.float32)
