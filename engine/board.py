"""Checker arrays and the geometry of the two variants.

Each side's checkers are a tuple of 26 counts in that side's *own* numbering: index 0 is
borne off, 1..24 are the points (1..6 home, moving from high to low), 25 is the bar. Keeping
both sides in their own numbering means a move never needs flipping; the variants differ
only in how one side's point maps onto the other's (``Rules.opposite``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import InvalidInputError
from engine.types import Variant

Checkers = tuple[int, ...]

OFF = 0
BAR = 25
SIZE = 26
CHECKERS = 15

#: classic: my point p is the opponent's point 25 - p.
CLASSIC_OPPOSITE: tuple[int, ...] = tuple([0] + [25 - p for p in range(1, 25)] + [0])
#: long: my point p is the opponent's point ((p + 11) % 24) + 1 (their head 24 is my 12).
LONG_OPPOSITE: tuple[int, ...] = tuple([0] + [((p + 11) % 24) + 1 for p in range(1, 25)] + [0])


def classic_start() -> Checkers:
    c = [0] * SIZE
    c[24], c[13], c[8], c[6] = 2, 5, 3, 5
    return tuple(c)


def long_start() -> Checkers:
    c = [0] * SIZE
    c[24] = CHECKERS
    return tuple(c)


def start(variant: Variant) -> Checkers:
    return variant.rules.start()


def pips(c: Checkers) -> int:
    """Pip count: the distance left to bear everything off (bar counts 25)."""
    return sum(p * c[p] for p in range(1, SIZE))


def validate(mine: Sequence[int], theirs: Sequence[int], variant: Variant) -> None:
    """Raise InvalidInputError unless the two arrays form a possible position."""
    rules = variant.rules
    for name, c in (("mover", mine), ("opponent", theirs)):
        if len(c) != SIZE:
            raise InvalidInputError(f"{name}: expected {SIZE} counts, got {len(c)}")
        if any((not isinstance(n, int)) or n < 0 for n in c):
            raise InvalidInputError(f"{name}: counts must be non-negative integers")
        if sum(c) != CHECKERS:
            raise InvalidInputError(f"{name}: {sum(c)} checkers, expected {CHECKERS}")
        if not rules.has_bar and c[BAR]:
            raise InvalidInputError(f"{name}: long has no bar")
    table = rules.opposite
    for p in range(1, 25):
        if mine[p] and theirs[table[p]]:
            raise InvalidInputError(f"point {p} holds checkers of both sides")
