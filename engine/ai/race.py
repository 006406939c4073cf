"""Which positions are races: no checker of either side can meet one of the other again.

In a race only speed matters, and once both sides are home the bear-off database knows the
exact outcome. The test is the same for both variants, read from the rules' point mapping:
a side's checker on point p will still visit its points 1..p, the opponent's checker on
their point q their points 1..q; the sides are in contact when those sets share a point.
"""

from __future__ import annotations

import numpy as np

from engine.ai.arrays import Counts, Flags
from engine.types import Variant

_POINTS = np.arange(1, 25)


def _rear(checkers: Counts) -> Counts:
    """The highest occupied point (25 = bar) of each row, 0 when all are off."""
    c = np.asarray(checkers)[:, 1:26] > 0
    rear: Counts = np.where(c.any(axis=1), 25 - np.argmax(c[:, ::-1], axis=1), 0)
    return rear


def no_contact(variant: Variant, mine: Counts, theirs: Counts) -> Flags:
    """Per row: can no checker of ``mine`` meet one of ``theirs`` any more?

    My points 1..rear(mine) are still on my way; my point r is the opponent's point
    ``opposite[r]`` (the mapping is its own inverse), on their way when it is at most
    rear(theirs).
    """
    opposite = np.asarray(variant.rules.opposite)[_POINTS]
    my_way = _POINTS[None, :] <= _rear(mine)[:, None]
    their_way = opposite[None, :] <= _rear(theirs)[:, None]
    apart: Flags = np.logical_not((my_way & their_way).any(axis=1))
    return apart


def is_race(variant: Variant, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """``no_contact`` for one position."""
    return bool(no_contact(variant, np.array([mine]), np.array([theirs]))[0])
