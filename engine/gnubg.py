"""GNU Backgammon Position ID and Match ID (classic), encode and decode.

Position ID: 80 bits, least significant bit first, base64 without padding (14 chars).
First the player *not* on roll, then the player on roll, each from their own side: for
points 1..24 and then the bar, one ``1`` bit per checker and a ``0`` after each point.

Match ID: 66 bits (12 base64 chars) with the cube, the player on roll, Crawford, the game
state, the dice, the match length and both scores, laid out as gnubg documents it.

``position_id_for`` and ``match_id_for`` read a classic :class:`GameState` the way gnubg
would show it, so the bot only asks for the two strings: gnubg players 0 and 1 are White
and Black; a 1-point match has length 1 and a money game (Tavola's "partita libera") length 0;
while a double waits for an answer the doubler stays on roll (``on_roll``, and the side
the Position ID is seen from) and the taker has the decision (``turn``); after a game
played to the end the loser is on roll, as gnubg swaps sides after the last move.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import BAR, CHECKERS, CLASSIC_OPPOSITE, SIZE, Checkers
from engine.errors import InvalidInputError, shown
from engine.game import EndReason, GameState, Phase
from engine.types import ResultKind, Side


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
        raise InvalidInputError(f"{what} is not valid base64: {shown(text)}") from None
    if len(data) != nbytes:
        raise InvalidInputError(f"{what} decodes to {len(data)} bytes, expected {nbytes}")
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(nbytes * 8)]


#: The groups of a gnubg Position ID, in order: points 1..24, then the bar.
GNUBG_POINTS: tuple[int, ...] = (*range(1, 25), BAR)


def pack_sides(sides: tuple[Checkers, Checkers], points: Sequence[int]) -> str:
    """Unary-code each side's counts on ``points`` (a 1 per checker, a 0 after each point)."""
    bits: list[int] = []
    for side in sides:
        for p in points:
            bits.extend([1] * side[p])
            bits.append(0)
    return _bits_to_b64(bits, 10)


def unpack_sides(
    text: str, points: Sequence[int], opposite: Sequence[int], what: str
) -> tuple[Checkers, Checkers]:
    """The inverse of :func:`pack_sides`, with off counts filled in and the position checked:
    at most 15 checkers a side, no stray bits, never both sides on one point (``opposite``
    maps the second side's points onto the first side's numbering)."""
    bits = _b64_to_bits(text, 14, 10, what)
    sides: list[Checkers] = []
    i = 0
    for _ in range(2):
        counts = [0] * SIZE
        for p in points:
            while i < 80 and bits[i]:
                counts[p] += 1
                i += 1
            if i >= 80:
                raise InvalidInputError(f"{what} ends in the middle of a point")
            i += 1  # the separating 0
        total = sum(counts)
        if total > CHECKERS:
            raise InvalidInputError(f"{what} has {total} checkers for one side (max 15)")
        counts[0] = CHECKERS - total
        sides.append(tuple(counts))
    if any(bits[i:]):
        raise InvalidInputError(f"{what} has stray bits after both sides")
    first, second = sides
    for p in range(1, 25):
        if second[p] and first[opposite[p]]:
            raise InvalidInputError(f"{what} puts both sides on point {p}")
    return first, second


def encode_position(not_on_roll: Checkers, on_roll: Checkers) -> str:
    """Position ID of a position; each side's checkers in its own numbering."""
    return pack_sides((not_on_roll, on_roll), GNUBG_POINTS)


def decode_position(position_id: str) -> tuple[Checkers, Checkers]:
    """(not on roll, on roll) checkers, off counts filled in; raises InvalidInputError."""
    return unpack_sides(position_id, GNUBG_POINTS, CLASSIC_OPPOSITE, "Position ID")


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
    #: Bit 67, after the 66 documented ones: gnubg 1.07 sets it whenever the Jacoby rule
    #: does not apply (every match, and money sessions with Jacoby off), so its match IDs
    #: end in "E"; kept so its IDs round-trip unchanged.
    no_jacoby: bool = False


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
    _put(bits, int(info.no_jacoby), 1)
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
        no_jacoby=bool(bits[66]),
    )
    if any(bits[67:]):
        raise InvalidInputError("Match ID has stray bits after the score")
    if info.game_state > 4:
        raise InvalidInputError("Match ID has an invalid game state")
    return info


#: gnubg's game states (Match ID bits 9-11) for a finished game, by how it ended.
_ENDED: dict[EndReason, int] = {
    EndReason.PLAYED: 2,
    EndReason.LAST_ROLL: 2,
    EndReason.RESIGNED: 3,
    EndReason.TIMEOUT: 3,  # gnubg has no clock: losing on time is a resignation it accepts
    EndReason.DROPPED: 4,
}
#: gnubg's resignation values (bits 14-15): single, gammon, backgammon.
_RESIGNATION: dict[ResultKind, int] = {
    ResultKind.SINGLE: 1,
    ResultKind.GAMMON: 2,
    ResultKind.BACKGAMMON: 3,
}


def _require_classic(state: GameState) -> None:
    if not state.rules.gnubg_ids:
        raise InvalidInputError("GNU Backgammon ids exist for classic backgammon only")


def _on_roll(state: GameState) -> Side:
    """The side gnubg calls on roll (``fMove``): the doubler while a double is pending, the
    doubler after a drop, else the side on turn."""
    doubled = state.phase is Phase.DOUBLED
    dropped = state.result is not None and state.result.reason is EndReason.DROPPED
    return state.turn.other if doubled or dropped else state.turn


def match_info_for(state: GameState) -> MatchInfo:
    """The Match ID fields gnubg would show for this classic state (players 0/1 = White/Black)."""
    _require_classic(state)
    on_roll = _on_roll(state)
    result = state.result
    game_state, turn, resignation = 1, state.turn, 0
    if result is not None:
        game_state = _ENDED[result.reason]
        if game_state == 3 and result.winner is not None:
            turn = result.winner  # the one who accepted the resignation
            resignation = _RESIGNATION.get(result.kind, 1)
    dice = state.dice if state.phase is Phase.MOVE and state.dice else (0, 0)
    return MatchInfo(
        cube_value=state.cube_value,
        cube_owner=None if state.cube_owner is None else int(state.cube_owner),
        on_roll=int(on_roll),
        crawford=state.crawford,
        game_state=game_state,
        turn=int(turn),
        double_offered=state.phase is Phase.DOUBLED,
        resignation=resignation,
        dice=dice,
        match_length=state.config.length,
        score=(state.score[state.player_of(Side.WHITE)], state.score[state.player_of(Side.BLACK)]),
        no_jacoby=not state.config.jacoby_in_force,
    )


def match_id_for(state: GameState) -> str:
    """gnubg's Match ID of a classic state (see :func:`match_info_for`)."""
    return encode_match(match_info_for(state))


def position_id_for(state: GameState) -> str:
    """gnubg's Position ID of a classic state, seen from the side gnubg has on roll.

    While a roll is being played the position is the one at the start of the turn: the
    Match ID carries the dice, and the pair must describe a roll still to be played.
    """
    _require_classic(state)
    checkers = state.checkers
    if state.phase is Phase.MOVE and state.turn_start is not None:
        checkers = state.turn_start
    on_roll = _on_roll(state)
    return encode_position(checkers[on_roll.other], checkers[on_roll])
