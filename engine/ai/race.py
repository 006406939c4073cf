"""Which positions are races: no checker of either side can meet one of the other again.

In a race only speed matters, and once both sides are home the bear-off database knows the
exact outcome. The test is the same for both variants, read from the rules' point mapping:
a side's checker on point p will still visit its points 1..p, the opponent's checker on
their point q their points 1..q; the sides are in contact when those sets share a point.
This is the one test of the package: the networks' choice of contact or race network, the
levels, the cube's efficiency and the trainer all ask it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.ai.arrays import Counts, Flags
from engine.types import Variant


def rear(checkers: Counts) -> Counts:
    """The highest occupied point (25 = bar) of each row, 0 when all are off."""
    c = np.asarray(checkers)[:, 1:26] > 0
    found: Counts = np.where(c.any(axis=1), 25 - np.argmax(c[:, ::-1], axis=1), 0)
    return found


@cache
def _first_met(variant: Variant) -> Counts:
    """Per rear point r of mine: the lowest opponent's point on my way (my points 1..r).

    My point p is the opponent's point ``opposite[p]`` (the mapping is its own inverse);
    the sides meet when it is on their way too, i.e. at most their rear. 26 (never) when
    I have nothing left to travel.
    """
    opposite = variant.rules.opposite
    table = [26] + [min(opposite[p] for p in range(1, min(r, 24) + 1)) for r in range(1, 26)]
    return np.array(table)


def no_contact(variant: Variant, mine: Counts, theirs: Counts) -> Flags:
    """Per row: can no checker of ``mine`` meet one of ``theirs`` any more?

    The sides meet when the lowest opponent's point on my way is on theirs as well: a
    lookup by my rear point, compared with theirs.
    """
    apart: Flags = _first_met(variant)[rear(mine)] > rear(theirs)
    return apart


def is_race(variant: Variant, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """``no_contact`` for one position."""
    return bool(no_contact(variant, np.array([mine]), np.array([theirs]))[0])
