"""GNU Backgammon Position ID and Match ID (classic), encode and decode.

Position ID: 80 bits, least significant bit first, base64 without padding (14 chars).
First the player *not* on roll, then the player on roll, each from their own side: for
points 1..24 and then the bar, one ``1`` bit per checker and a ``0`` after each point.

Match ID: 66 bits (12 base64 chars) with the cube, the player on roll, Crawford, the game
state, the dice, the match length and both scores, laid out as gnubg documents it.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from engine.board import BAR, CHECKERS, SIZE, Checkers
from engine.errors import InvalidInputError


def _bits_to_b64(bits: list[int], nbytes: int) -> str:
    data = bytearray(nbytes)
    for i, bit in enumerate(bits):
        if bit:
            data[i // 8] |= 1 << (i % 8)
    return base64.b64encode(bytes(data)).decode("ascii").rstrip("=")


def _b64_to_bits(text: str, nchars: int, nbytes: int, what: str) -> list[int]:
    if not isinstance(text, str) or len(text) != nchars:
        raise InvalidInputError(f"{what} must be {nchars} base64 characters")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInputError(f"{what} is not valid base64: {text!r}") from None
    if len(data) != nbytes:
        raise InvalidInputError(f"{what} decodes to {len(data)} bytes, expected {nbytes}")
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(nbytes * 8)]


def encode_position(not_on_roll: Checkers, on_roll: Checkers) -> str:
    """Position ID of a position; each side's checkers in its own numbering."""
    bits: list[int] = []
    for side in (not_on_roll, on_roll):
        for p in [*list(range(1, 25)), BAR]:
            bits.extend([1] * side[p])
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    return _bits_to_b64(bits, 10)


def decode_position(position_id: str) -> tuple[Checkers, Checkers]:
    """(not on roll, on roll) checkers, off counts filled in; raises InvalidInputError."""
    bits = _b64_to_bits(position_id, 14, 10, "Position ID")
    sides: list[list[int]] = []
    i = 0
    for _ in range(2):
        counts = [0] * SIZE
        for p in [*list(range(1, 25)), BAR]:
            n = 0
            while i < 80 and bits[i]:
                n += 1
                i += 1
            if i >= 80:
                raise InvalidInputError("Position ID ends in the middle of a point")
            i += 1  # the separating 0
            counts[p] = n
        total = sum(counts)
        if total > CHECKERS:
            raise InvalidInputError(f"Position ID has {total} checkers for one side (max 15)")
        counts[0] = CHECKERS - total
        sides.append(counts)
    if any(bits[i:]):
        raise InvalidInputError("Position ID has stray bits after both sides")
    not_on_roll, on_roll = (tuple(s) for s in sides)
    for p in range(1, 25):
        if on_roll[p] and not_on_roll[25 - p]:
            raise InvalidInputError(f"Position ID puts both sides on point {p}")
    return not_on_roll, on_roll


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The fields of a gnubg Match ID. Players are 0 and 1 as gnubg numbers them."""

    cube_value: int = 1
    cube_owner: int | None = None  # None = centred
    on_roll: int = 0
    crawford: bool = False
    game_state: int = 1  # 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by drop
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    #: Bit 67, after the 66 documented ones: gnubg sets it when the Jacoby rule is on
    #: (its IDs for new matches end in "E"); kept so its IDs round-trip unchanged.
    jacoby: bool = False


def _put(bits: list[int], value: int, width: int) -> None:
    bits.extend((value >> k) & 1 for k in range(width))


def _take(bits: list[int], pos: int, width: int) -> int:
    return sum(bits[pos + k] << k for k in range(width))


def encode_match(info: MatchInfo) -> str:
    if info.cube_value < 1 or info.cube_value & (info.cube_value - 1):
        raise InvalidInputError(f"cube value {info.cube_value} is not a power of two")
    bits: list[int] = []
    _put(bits, info.cube_value.bit_length() - 1, 4)
    _put(bits, 3 if info.cube_owner is None else info.cube_owner, 2)
    _put(bits, info.on_roll, 1)
    _put(bits, int(info.crawford), 1)
    _put(bits, info.game_state, 3)
    _put(bits, info.turn, 1)
    _put(bits, int(info.double_offered), 1)
    _put(bits, info.resignation, 2)
    _put(bits, info.dice[0], 3)
    _put(bits, info.dice[1], 3)
    _put(bits, info.match_length, 15)
    _put(bits, info.score[0], 15)
    _put(bits, info.score[1], 15)
    _put(bits, int(info.jacoby), 1)
    return _bits_to_b64(bits, 9)


def decode_match(match_id: str) -> MatchInfo:
    bits = _b64_to_bits(match_id, 12, 9, "Match ID")
    owner = _take(bits, 4, 2)
    if owner == 2:
        raise InvalidInputError("Match ID has an invalid cube owner")
    dice = (_take(bits, 15, 3), _take(bits, 18, 3))
    if any(d > 6 for d in dice) or (dice[0] == 0) != (dice[1] == 0):
        raise InvalidInputError("Match ID has invalid dice")
    info = MatchInfo(
        cube_value=1 << _take(bits, 0, 4),
        cube_owner=None if owner == 3 else owner,
        on_roll=bits[6],
        crawford=bool(bits[7]),
        game_state=_take(bits, 8, 3),
        turn=bits[11],
        double_offered=bool(bits[12]),
        resignation=_take(bits, 13, 2),
        dice=dice,
        match_length=_take(bits, 21, 15),
        score=(_take(bits, 36, 15), _take(bits, 51, 15)),
        jacoby=bool(bits[66]),
    )
    if any(bits[67:]):
        raise InvalidInputError("Match ID has stray bits after the score")
    if info.game_state > 4:
        raise InvalidInputError("Match ID has an invalid game state")
    return info
