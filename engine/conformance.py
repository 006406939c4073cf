"""The conformance protocol: JSON lines in, one JSON line of legal plays out per input.

Classic lines carry a gnubg Position ID (player on roll); long lines carry the board in the
mover's own numbering (positive = mover, negative = opponent).
A line that cannot be accepted yields ``{"error": ...}`` and processing goes on.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from engine.board import LONG_OPPOSITE, SIZE, Checkers, validate
from engine.errors import EngineError, InvalidInputError, shown
from engine.game import GameState, MatchConfig, Phase
from engine.gnubg import decode_position, encode_position
from engine.moves import Play
from engine.notation import format_play
from engine.types import Side, Variant


def long_board_to_checkers(board: object, off: object) -> tuple[Checkers, Checkers]:
    """(mover, opponent) checkers from the protocol's mover-perspective board (any JSON
    value: anything but a valid board raises InvalidInputError)."""
    if not isinstance(board, list) or len(board) != 24:
        raise InvalidInputError("board must be a list of 24 integers")
    if not isinstance(off, list) or len(off) != 2:
        raise InvalidInputError("off must be [mover, opponent]")
    if any(not isinstance(n, int) or isinstance(n, bool) for n in off):
        raise InvalidInputError("off must hold two integers")
    mine, theirs = [0] * SIZE, [0] * SIZE
    mine[0], theirs[0] = int(off[0]), int(off[1])
    for i, n in enumerate(board):
        if not isinstance(n, int) or isinstance(n, bool):
            raise InvalidInputError("board entries must be integers")
        if n > 0:
            mine[i + 1] = n
        elif n < 0:
            theirs[LONG_OPPOSITE[i + 1]] = -n
    m, t = tuple(mine), tuple(theirs)
    validate(m, t, Variant.LONG)
    return m, t


def long_checkers_to_board(mine: Checkers, theirs: Checkers) -> tuple[list[int], list[int]]:
    board = [0] * 24
    for p in range(1, 25):
        board[p - 1] += mine[p]
        board[p - 1] -= theirs[LONG_OPPOSITE[p]]
    return board, [mine[0], theirs[0]]


def _dice(value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidInputError("dice must be [d1, d2]")
    for d in value:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise InvalidInputError(f"a die must be an integer from 1 to 6, got {shown(d)}")
    return value[0], value[1]


def state_from_request(req: dict[str, Any]) -> GameState:
    """A GameState in the MOVE phase for a conformance request (mover on turn)."""
    if not isinstance(req, dict):
        raise InvalidInputError("each line must be a JSON object")
    variant = req.get("variant")
    d1, d2 = _dice(req.get("dice"))
    if variant == "classic":
        position_id = req.get("position_id")
        if not isinstance(position_id, str):  # missing, or not text
            raise InvalidInputError("Position ID must be 14 base64 characters")
        theirs, mine = decode_position(position_id)
        validate(mine, theirs, Variant.CLASSIC)
        side = Side.WHITE
        checkers = (mine, theirs)
        state = GameState(MatchConfig(Variant.CLASSIC), checkers, Phase.ROLL, side)
        return state.roll(d1, d2)
    if variant == "long":
        mine, theirs = long_board_to_checkers(req.get("board"), req.get("off"))
        mover = req.get("mover")
        try:
            if not isinstance(mover, str):  # missing, or not text
                raise ValueError(mover)
            side = Side.parse(mover)
        except ValueError:
            raise InvalidInputError("mover must be 'white' or 'black'") from None
        first = req.get("first_turn")
        if not isinstance(first, bool):
            raise InvalidInputError("first_turn must be true or false")
        opening = req.get("opening")
        if opening is not None:
            opening = _dice(opening)
        by_side: list[Checkers] = [(), ()]
        by_side[side], by_side[side.other] = mine, theirs
        moved = [True, True]
        moved[side] = not first
        state = GameState(
            MatchConfig(Variant.LONG),
            (by_side[0], by_side[1]),
            Phase.ROLL,
            side,
            has_moved=(moved[0], moved[1]),
            white_first_roll=opening,
        )
        return state.roll(d1, d2)
    raise InvalidInputError("variant must be 'classic' or 'long'")


def play_to_json(state: GameState, play: Play) -> dict[str, Any]:
    out: dict[str, Any] = {"notation": format_play(play)}
    if state.rules.gnubg_ids:
        out["position_id"] = encode_position(play.theirs, play.mine)
    else:
        board, off = long_checkers_to_board(play.mine, play.theirs)
        out["board"], out["off"] = board, off
    return out


def parse_line(line: str) -> Any:
    """One request line as JSON; raises InvalidInputError for anything unreadable.

    Besides malformed JSON, ``json.loads`` refuses integers of more than 4,300 digits with
    ValueError and very deep nesting with RecursionError: one such line must not stop a
    stream of requests.
    """
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"not JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise InvalidInputError(f"not JSON that can be read: {type(exc).__name__}") from None


def answer(line: str) -> dict[str, Any]:
    try:
        state = state_from_request(parse_line(line))
        return {"plays": [play_to_json(state, p) for p in state.legal_plays()]}
    except EngineError as exc:
        return {"error": str(exc)}


def answers(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield answer(line)


def serve(answer_line: Callable[[str], dict[str, Any]], stdin: TextIO, stdout: TextIO) -> None:
    """Answer each non-blank line with one JSON line, flushed before the next is read.

    A line whose answer fails unexpectedly still gets an ``{"error": ...}`` line, so that
    the lines after it are answered: a program driving us through a pipe never hangs.
    """
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")  # a line of broken UTF-8 is one bad line
    for line in iter(stdin.readline, ""):
        if not line.strip():
            continue
        try:
            result = answer_line(line)
        except Exception as exc:
            result = {"error": f"internal error: {type(exc).__name__}"}
        stdout.write(json.dumps(result, separators=(",", ":")) + "\n")
        stdout.flush()


def run(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    serve(answer, stdin, stdout)
