"""JSON (de)serialisation of a whole GameState, compact and versioned.

The document carries ``"schema": SCHEMA_VERSION``; a document of another schema is refused
with InvalidInputError rather than misread (storage migrates old ones before calling us).
Keys are short because every stored game is read and written once per click.
"""

from __future__ import annotations

import json
from typing import Any

from engine.board import SIZE, Checkers, validate
from engine.errors import InvalidInputError
from engine.game import (
    EndReason,
    GameResult,
    GameState,
    LastPlay,
    MatchConfig,
    Phase,
    ResultKind,
)
from engine.moves import Step
from engine.types import SeriesStart, Side, Variant

SCHEMA_VERSION = 1


def _steps(steps: tuple[Step, ...]) -> list[list[int]]:
    return [[s.src, s.dst, s.die, int(s.hit)] for s in steps]


def _unsteps(data: list) -> tuple[Step, ...]:
    return tuple(Step(int(a), int(b), int(d), bool(h)) for a, b, d, h in data)


def _pair(c: tuple[Checkers, Checkers]) -> list[list[int]]:
    return [list(c[0]), list(c[1])]


def _unpair(data: list, variant: Variant) -> tuple[Checkers, Checkers]:
    if len(data) != 2 or any(len(c) != SIZE for c in data):
        raise InvalidInputError("checkers must be two lists of 26 counts")
    white, black = tuple(int(n) for n in data[0]), tuple(int(n) for n in data[1])
    validate(white, black, variant)
    return white, black


def to_dict(state: GameState) -> dict[str, Any]:
    c = state.config
    doc: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "cfg": [
            c.variant.value,
            c.length,
            int(c.cube),
            int(c.mars),
            int(c.last_roll),
            c.series_start.value,
        ],
        "ck": _pair(state.checkers),
        "ph": state.phase.value,
        "tu": int(state.turn),
        "wp": state.white_player,
        "cv": state.cube_value,
        "co": None if state.cube_owner is None else int(state.cube_owner),
        "cr": [int(state.crawford), int(state.crawford_done)],
        "sc": list(state.score),
        "gn": state.game_number,
        "st": None if state.starter is None else int(state.starter),
        "hm": [int(state.has_moved[0]), int(state.has_moved[1])],
        "lr": int(state.last_roll_turn),
    }
    optional = {
        "dc": list(state.dice) if state.dice else None,
        "sp": _steps(state.steps) if state.steps else None,
        "ts": _pair(state.turn_start) if state.turn_start else None,
        "wf": list(state.white_first_roll) if state.white_first_roll else None,
        "or": list(state.opening_roll) if state.opening_roll else None,
        "lw": state.last_winner_player,
    }
    if state.result is not None:
        r = state.result
        optional["rs"] = [
            None if r.winner is None else int(r.winner),
            r.kind.value,
            r.points,
            r.reason.value,
            r.cube,
        ]
    if state.last_play is not None:
        lp = state.last_play
        optional["lp"] = [int(lp.side), _steps(lp.steps), list(lp.dice) if lp.dice else None]
    doc.update({k: v for k, v in optional.items() if v is not None})
    return doc


def from_dict(doc: dict[str, Any]) -> GameState:
    """Rebuild a GameState; raises InvalidInputError on any malformed document."""
    if not isinstance(doc, dict):
        raise InvalidInputError("a game document must be a JSON object")
    schema = doc.get("schema")
    if schema != SCHEMA_VERSION:
        raise InvalidInputError(f"unsupported game schema {schema!r} (expected {SCHEMA_VERSION})")
    try:
        v, length, cube, mars, last_roll, series = doc["cfg"]
        config = MatchConfig(
            Variant(v), int(length), bool(cube), bool(mars), bool(last_roll), SeriesStart(series)
        )
        variant = config.variant
        result = None
        if "rs" in doc:
            w, kind, points, reason, cv = doc["rs"]
            result = GameResult(
                None if w is None else Side(w),
                ResultKind(kind),
                int(points),
                EndReason(reason),
                int(cv),
            )
        last_play = None
        if "lp" in doc:
            side, steps, dice = doc["lp"]
            last_play = LastPlay(Side(side), _unsteps(steps), tuple(dice) if dice else None)
        state = GameState(
            config=config,
            checkers=_unpair(doc["ck"], variant),
            phase=Phase(doc["ph"]),
            turn=Side(doc["tu"]),
            white_player=int(doc["wp"]),
            dice=tuple(doc["dc"]) if "dc" in doc else None,
            steps=_unsteps(doc.get("sp", [])),
            turn_start=_unpair(doc["ts"], variant) if "ts" in doc else None,
            cube_value=int(doc["cv"]),
            cube_owner=None if doc["co"] is None else Side(doc["co"]),
            crawford=bool(doc["cr"][0]),
            crawford_done=bool(doc["cr"][1]),
            score=(int(doc["sc"][0]), int(doc["sc"][1])),
            game_number=int(doc["gn"]),
            starter=None if doc["st"] is None else Side(doc["st"]),
            has_moved=(bool(doc["hm"][0]), bool(doc["hm"][1])),
            white_first_roll=tuple(doc["wf"]) if "wf" in doc else None,
            opening_roll=tuple(doc["or"]) if "or" in doc else None,
            last_roll_turn=bool(doc["lr"]),
            result=result,
            last_play=last_play,
            last_winner_player=doc.get("lw"),
        )
    except InvalidInputError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"malformed game document: {exc}") from None
    if state.phase is Phase.MOVE and (state.dice is None or state.turn_start is None):
        raise InvalidInputError("malformed game document: a turn in progress needs dice")
    return state


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_json(text: str | bytes) -> GameState:
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"game document is not JSON: {exc}") from None
    return from_dict(doc)
