"""A compact position id for backgammon lungo, in the spirit of gnubg's Position ID.

Layout (documented so other tools can read it): 78 bits, least significant bit first,
packed into 10 bytes and written as base64 without padding (14 characters). First the
player *not* on roll, then the player on roll, each from their own side: for points 1..24,
one ``1`` bit per checker followed by a ``0``. Borne-off checkers are the ones missing
from 15. There is no bar in long, so unlike gnubg's id there is no 25th group.
The id is prefixed with ``L-`` so it can never be mistaken for a classic Position ID.
"""

from __future__ import annotations

from engine.board import CHECKERS, LONG_OPPOSITE, SIZE, Checkers
from engine.errors import InvalidInputError
from engine.gnubg import _b64_to_bits, _bits_to_b64

PREFIX = "L-"


def encode(not_on_roll: Checkers, on_roll: Checkers) -> str:
    bits: list[int] = []
    for side in (not_on_roll, on_roll):
        for p in range(1, 25):
            bits.extend([1] * side[p])
            bits.append(0)
    return PREFIX + _bits_to_b64(bits, 10)


def decode(position_id: str) -> tuple[Checkers, Checkers]:
    if not isinstance(position_id, str) or not position_id.startswith(PREFIX):
        raise InvalidInputError("a long position id starts with 'L-'")
    bits = _b64_to_bits(position_id[len(PREFIX) :], 14, 10, "long position id")
    sides: list[Checkers] = []
    i = 0
    for _ in range(2):
        counts = [0] * SIZE
        for p in range(1, 25):
            while i < 80 and bits[i]:
                counts[p] += 1
                i += 1
            if i >= 80:
                raise InvalidInputError("long position id ends in the middle of a point")
            i += 1
        if sum(counts) > CHECKERS:
            raise InvalidInputError("long position id has more than 15 checkers for a side")
        counts[0] = CHECKERS - sum(counts)
        sides.append(tuple(counts))
    if any(bits[i:]):
        raise InvalidInputError("long position id has stray bits")
    not_on_roll, on_roll = sides
    for p in range(1, 25):
        if on_roll[p] and not_on_roll[LONG_OPPOSITE[p]]:
            raise InvalidInputError(f"long position id puts both sides on point {p}")
    return not_on_roll, on_roll
