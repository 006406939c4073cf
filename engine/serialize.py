"""JSON (de)serialisation of a whole GameState, compact and versioned.

The document carries ``"schema": SCHEMA_VERSION``; a document of another schema is refused
with InvalidInputError rather than misread (storage migrates old ones before calling us).
Keys are short because every stored game is read and written once per click.
"""

from __future__ import annotations

import json
from typing import Any

from engine.board import SIZE, Checkers, validate
from engine.errors import IllegalMoveError, InvalidInputError, shown
from engine.game import MAX_CUBE, GameState
from engine.moves import Step
from engine.state_parts import (
    EndReason,
    GamePart,
    GameResult,
    LastPlay,
    MatchConfig,
    MatchPart,
    Phase,
    TurnPart,
)
from engine.types import ResultKind, SeriesStart, Side, Variant

SCHEMA_VERSION = 1


def _steps(steps: tuple[Step, ...]) -> list[list[int]]:
    return [[s.src, s.dst, s.die, int(s.hit)] for s in steps]


def _pair(c: tuple[Checkers, Checkers]) -> list[list[int]]:
    return [list(c[0]), list(c[1])]


# --------------------------------------------------------------------------- field readers
# Every stored field is checked for its type and range, because a document that loads must
# give a state on which every action works (storage can be corrupted, or written by an
# older or hostile client): bool is refused where an integer is meant, and vice versa.
def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise InvalidInputError(f"{what} must be an integer from {lo} to {hi}")
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, int) or value not in (0, 1):
        raise InvalidInputError(f"{what} must be 0 or 1")
    return bool(value)


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise InvalidInputError(f"{what} must be {size}")
    return value


def _side(value: Any, what: str) -> Side:
    return Side(_int(value, what, 0, 1))


def _maybe_side(value: Any, what: str) -> Side | None:
    return None if value is None else _side(value, what)


def _enum(cls: Any, value: Any, what: str) -> Any:
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string")
    try:
        return cls(value)
    except ValueError:
        raise InvalidInputError(f"{what}: unknown value {shown(value)}") from None


def _dice(value: Any, what: str) -> tuple[int, int]:
    a, b = _list(value, what, 2)
    return _int(a, what, 1, 6), _int(b, what, 1, 6)


def _maybe_dice(value: Any, what: str) -> tuple[int, int] | None:
    return None if value is None else _dice(value, what)


def _unsteps(data: Any, what: str) -> tuple[Step, ...]:
    out = []
    for item in _list(data, what):
        src, dst, die, hit = _list(item, what, 4)
        out.append(
            Step(
                _int(src, what, 1, 25),
                _int(dst, what, 0, 24),
                _int(die, what, 1, 6),
                _flag(hit, what),
            )
        )
    if len(out) > 4:
        raise InvalidInputError(f"{what}: at most four steps in a turn")
    return tuple(out)


def _unpair(data: Any, variant: Variant, what: str) -> tuple[Checkers, Checkers]:
    sides = _list(data, what, 2)
    white, black = (tuple(_int(n, what, 0, 15) for n in _list(side, what, SIZE)) for side in sides)
    validate(white, black, variant)
    return white, black


def _result(data: Any) -> GameResult:
    w, kind, points, reason, cube = _list(data, "result", 5)
    cube = _int(cube, "result cube", 1, MAX_CUBE)
    if cube & (cube - 1):
        raise InvalidInputError("result cube must be a power of two")
    return GameResult(
        _maybe_side(w, "result winner"),
        _enum(ResultKind, kind, "result kind"),
        _int(points, "result points", 0, 3 * MAX_CUBE),
        _enum(EndReason, reason, "result reason"),
        cube,
    )


def config_to_doc(c: MatchConfig) -> list[Any]:
    """A match's settings as the compact list every stored document carries (the Jacoby
    setting only when off, so the documents written before it read back unchanged)."""
    doc: list[Any] = [
        c.variant.value,
        c.length,
        int(c.cube),
        int(c.mars),
        int(c.last_roll),
        c.series_start.value,
    ]
    return doc if c.jacoby else [*doc, 0]


def config_from_doc(value: Any) -> MatchConfig:
    """The settings written by :func:`config_to_doc`, each field checked (documents
    written before the Jacoby setting have six fields: Jacoby on, its default)."""
    if isinstance(value, list) and len(value) == 6:
        value = [*value, 1]
    v, length, cube, mars, last_roll, series, jacoby = _list(value, "cfg", 7)
    return MatchConfig(
        _enum(Variant, v, "variant"),
        _int(length, "match length", 0, 64),
        _flag(cube, "cube setting"),
        _flag(mars, "mars setting"),
        _flag(last_roll, "last roll setting"),
        _enum(SeriesStart, series, "series start"),
        _flag(jacoby, "jacoby setting"),
    )


def to_dict(state: GameState) -> dict[str, Any]:
    c = state.config
    doc: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "cfg": config_to_doc(c),
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
    optional: dict[str, Any] = {
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
    """Rebuild a GameState; raises InvalidInputError on any malformed document.

    Besides each field's type and range, the fields must agree with each other (dice, steps
    and the turn's start exactly in the MOVE phase; a result exactly when the game is over;
    a cube above 1 only with an owner), and the steps of a turn in progress are replayed
    from its start: they must be legal and lead to the stored checkers.
    """
    if not isinstance(doc, dict):
        raise InvalidInputError("a game document must be a JSON object")
    schema = doc.get("schema")
    if schema != SCHEMA_VERSION or isinstance(schema, bool):
        raise InvalidInputError(
            f"unsupported game schema {shown(schema)} (expected {SCHEMA_VERSION})"
        )
    try:
        return _from_dict(doc)
    except KeyError as exc:
        raise InvalidInputError(f"malformed game document: missing {exc}") from None
    except InvalidInputError as exc:
        if str(exc).startswith("malformed"):
            raise
        raise InvalidInputError(f"malformed game document: {exc}") from None


def _from_dict(doc: dict[str, Any]) -> GameState:
    config = config_from_doc(doc["cfg"])
    variant = config.variant
    phase = _enum(Phase, doc["ph"], "phase")
    over = phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
    moving = phase is Phase.MOVE
    cube_value = _int(doc["cv"], "cube value", 1, MAX_CUBE)
    cube_owner = _maybe_side(doc["co"], "cube owner")
    if cube_value & (cube_value - 1):
        raise InvalidInputError("cube value must be a power of two")
    if (cube_value > 1) != (cube_owner is not None):
        raise InvalidInputError("a cube above 1 has an owner, a centred cube is 1")
    if cube_value > 1 and not config.cube_in_play:
        raise InvalidInputError("this match has no cube")
    if phase is Phase.DOUBLED and not config.cube_in_play:
        raise InvalidInputError("this match has no cube to double")
    score = tuple(
        _int(n, "score", 0, config.length + 3 * MAX_CUBE) for n in _list(doc["sc"], "score", 2)
    )
    if (max(score) >= config.goal) != (phase is Phase.MATCH_OVER):
        raise InvalidInputError("the score does not agree with the phase")
    crawford, crawford_done = (_flag(f, "crawford") for f in _list(doc["cr"], "crawford", 2))
    has_moved = tuple(_flag(f, "has moved") for f in _list(doc["hm"], "has moved", 2))
    last_roll_turn = _flag(doc["lr"], "last roll turn")
    if last_roll_turn and not (config.rules.has_last_roll and config.last_roll):
        raise InvalidInputError("a last roll needs a long game with that setting")
    dice = _maybe_dice(doc.get("dc"), "dice")
    steps = _unsteps(doc.get("sp", []), "steps")
    turn_start = None if doc.get("ts") is None else _unpair(doc["ts"], variant, "turn start")
    if moving != (dice is not None) or moving != (turn_start is not None):
        raise InvalidInputError("dice and the turn's start belong to a turn in progress")
    if steps and not moving:
        raise InvalidInputError("steps belong to a turn in progress")
    result = _result(doc["rs"]) if doc.get("rs") is not None else None
    if over != (result is not None):
        raise InvalidInputError("a result belongs to a finished game")
    last_play = None
    if doc.get("lp") is not None:
        side, lp_steps, lp_dice = _list(doc["lp"], "last play", 3)
        last_play = LastPlay(
            _side(side, "last play side"),
            _unsteps(lp_steps, "last play steps"),
            _maybe_dice(lp_dice, "last play dice"),
        )
    match = MatchPart(
        config,
        score=(score[0], score[1]),
        game_number=_int(doc["gn"], "game number", 1, 10**9),
        crawford=crawford,
        crawford_done=crawford_done,
        last_winner_player=None if doc.get("lw") is None else _int(doc["lw"], "last winner", 0, 1),
    )
    checkers = _unpair(doc["ck"], variant, "checkers")
    game = GamePart(
        # A turn in progress is rebuilt from its start, step by step (see _replay).
        checkers=checkers if turn_start is None else turn_start,
        phase=phase,
        turn=_side(doc["tu"], "turn"),
        white_player=_int(doc["wp"], "white player", 0, 1),
        cube_value=cube_value,
        cube_owner=cube_owner,
        starter=_maybe_side(doc["st"], "starter"),
        has_moved=(has_moved[0], has_moved[1]),
        white_first_roll=_maybe_dice(doc.get("wf"), "white's first roll"),
        opening_roll=_maybe_dice(doc.get("or"), "opening roll"),
        last_roll_turn=last_roll_turn,
        result=result,
    )
    turn = TurnPart(dice=dice, turn_start=turn_start, last_play=last_play)
    state = GameState(match_part=match, game_part=game, turn_part=turn)
    if moving:
        state = _replay(state, steps, checkers)
    return state


def replay_steps(state: GameState, steps: tuple[Step, ...]) -> GameState:
    """``steps`` played one by one on ``state``; InvalidInputError unless each is legal and
    is played exactly as written (a stored document or record is checked, not trusted)."""
    for step in steps:
        try:
            state = state.step(step)
        except IllegalMoveError:
            raise InvalidInputError(f"step {step} is not legal") from None
        if state.steps[-1] != step:
            raise InvalidInputError(f"step {step} is not as played")
    return state


def _replay(
    state: GameState, steps: tuple[Step, ...], stored: tuple[Checkers, Checkers]
) -> GameState:
    """The turn in progress rebuilt from its start: each step legal, ending on the checkers."""
    state = replay_steps(state, steps)
    if state.checkers != stored:
        raise InvalidInputError("the steps do not lead to the checkers")
    return state


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_json(text: str | bytes) -> GameState:
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidInputError("a game document is JSON text")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:  # bad JSON, huge numbers, deep nesting
        raise InvalidInputError(f"game document is not JSON: {type(exc).__name__}") from None
    return from_dict(doc)
