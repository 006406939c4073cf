"""A compact position id for backgammon lungo, in the spirit of gnubg's Position ID.

Layout (documented so other tools can read it): 78 bits, least significant bit first,
packed into 10 bytes and written as base64 without padding (14 characters). First the
player *not* on roll, then the player on roll, each from their own side: for points 1..24,
one ``1`` bit per checker followed by a ``0``. Borne-off checkers are the ones missing
from 15. There is no bar in long, so unlike gnubg's id there is no 25th group.
The id is prefixed with ``L-`` so it can never be mistaken for a classic Position ID.
"""

from __future__ import annotations

from engine.board import LONG_OPPOSITE, Checkers
from engine.errors import InvalidInputError
from engine.gnubg import pack_sides, unpack_sides

PREFIX = "L-"


LONG_POINTS: tuple[int, ...] = tuple(range(1, 25))


def encode(not_on_roll: Checkers, on_roll: Checkers) -> str:
    return PREFIX + pack_sides((not_on_roll, on_roll), LONG_POINTS)


def decode(position_id: str) -> tuple[Checkers, Checkers]:
    if not isinstance(position_id, str) or not position_id.startswith(PREFIX):
        raise InvalidInputError("a long position id starts with 'L-'")
    return unpack_sides(position_id[len(PREFIX) :], LONG_POINTS, LONG_OPPOSITE, "long position id")
