"""Bad input at every edge: stored documents, public functions, the line protocols.

The rule these tests hold the engine to: bad input is refused with the engine's own error
(``InvalidInputError``, an ``EngineError``), never with a Python traceback from deep
inside, and a document that does load gives a state on which every action works.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import (
    EngineError,
    GameState,
    IllegalMoveError,
    InvalidInputError,
    MatchConfig,
    Phase,
    SeriesStart,
    Side,
    Variant,
)
from engine.serialize import from_dict, from_json, to_dict

ROOT = Path(__file__).resolve().parents[2]
VALID_CLASSIC = {"variant": "classic", "position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}
PATHOLOGICAL = [
    '{"a": ' + "9" * 5000 + "}",  # an integer beyond Python's 4,300-digit limit
    "[" * 100_000 + "]" * 100_000,  # nesting beyond the recursion limit
    '{"variant": "classic", "position_id": "4HPwATDgc/ABMA", "dice": [' + "9" * 4000 + ", 1]}",
    '{"variant": "long", "board": [[[[[[[[1]]]]]]]], "off": [0, 0], "dice": [1, 2]}',
    '"just a string"',
]


# --------------------------------------------------------------------------- line protocols
def _run(module_args: list[str], lines: list[bytes]) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", *module_args],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert not proc.stderr, proc.stderr.decode()[-2000:]
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def test_conformance_answers_every_line_after_a_pathological_one():
    good = json.dumps(VALID_CLASSIC).encode()
    lines = [good, *(p.encode() for p in PATHOLOGICAL), b"\xff\xfe not utf-8", good]
    replies = _run(["engine", "conformance"], lines)
    assert len(replies) == len(lines)
    assert "plays" in replies[0] and replies[-1] == replies[0]
    assert all("error" in r and len(r["error"]) < 200 for r in replies[1:-1])


def test_the_computer_answers_every_line_after_a_pathological_one():
    good = json.dumps({**VALID_CLASSIC, "level": "facile", "seed": 1}).encode()
    lines = [good, *(p.encode() for p in PATHOLOGICAL), b"\xff\xfe not utf-8", good]
    replies = _run(["engine.ai", "choose"], lines)
    assert len(replies) == len(lines)
    assert "play" in replies[0] and replies[-1] == replies[0]
    assert all("error" in r for r in replies[1:-1])


# --------------------------------------------------------------------------- public functions
def _moving() -> GameState:
    return GameState.new_match(MatchConfig(Variant.CLASSIC, 3)).roll_opening(3, 1)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.step(None),
        lambda s: s.step("13/10"),
        lambda s: s.step((13, None)),
        lambda s: s.step((1, 2, 3, 4)),
        lambda s: s.resign(2),
        lambda s: s.resign("white"),
        lambda s: s.resign(None),
        lambda s: s.timeout(True),
        lambda s: s.resign_value(-1),
        lambda s: s.side_of(2),
        lambda s: s.player_of(7),
        lambda s: s.play(None),
        lambda s: s.play("13/10 24/23"),
        lambda s: GameState.new_match("classic"),
        lambda s: MatchConfig("long"),
        lambda s: MatchConfig(Variant.LONG, series_start="loser"),
        lambda s: MatchConfig(Variant.CLASSIC, length=True),
        lambda s: MatchConfig(Variant.CLASSIC, length=3.0),
        lambda s: MatchConfig(Variant.CLASSIC, cube=1),
        lambda s: MatchConfig(Variant.LONG, last_roll="yes"),
        lambda s: GameState.new_match(MatchConfig()).roll_opening(None, 2),
    ],
)
def test_wrong_argument_types_raise_the_engines_own_error(call):
    with pytest.raises(InvalidInputError):
        call(_moving())


def test_a_step_off_the_board_is_illegal_even_with_a_huge_number():
    for step in ((10**5000, 1), (99, -4, 6), (13, 10, 7)):
        with pytest.raises(IllegalMoveError):
            _moving().step(step)


def test_sides_given_by_number_still_work():
    state = _moving()
    assert state.resign(0).result.winner is Side.BLACK
    assert state.resign(Side.BLACK).result.winner is Side.WHITE


# --------------------------------------------------------------------------- documents
def _doc_in_move() -> dict[str, Any]:
    return to_dict(_moving())


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dc", [9, 9]),
        ("dc", [0, 0]),
        ("dc", [3, True]),
        ("cv", 3),
        ("cv", -4),
        ("cv", 128),
        ("sc", [-1, 0]),
        ("sc", [0, True]),
        ("gn", 0),
        ("tu", 2),
        ("wp", "0"),
        ("cfg", ["classic", 3.5, 1, 1, 0, "loser"]),
        ("cfg", ["classic", 3, 2, 1, 0, "loser"]),
        ("sp", [[8, 5, 3, 0], [6, 5, 1, 0], [6, 5, 1, 0]]),  # more steps than the roll
        ("sp", [[13, 10, 4, 0]]),  # a step the dice do not allow
        ("ts", None),
        ("rs", [0, "single", 1, "played", 1]),  # a result while playing
        ("ph", "roll"),  # dice and steps left in a phase without them
    ],
)
def test_a_document_with_a_bad_field_is_refused(field, value):
    doc = _doc_in_move()
    doc[field] = value
    with pytest.raises(InvalidInputError):
        from_dict(doc)


def test_from_json_refuses_unreadable_text_with_the_engines_error():
    for text in (None, 42, "[" * 100_000, '{"x": ' + "1" * 5000 + "}", b"\xff"):
        with pytest.raises(InvalidInputError):
            from_json(text)  # type: ignore[arg-type]


def _documents(seed: int) -> list[dict[str, Any]]:
    """Documents of real states from random games: every phase, and turns half played."""
    rng = random.Random(seed)
    variant = rng.choice([Variant.CLASSIC, Variant.LONG])
    config = MatchConfig(
        variant,
        rng.choice([1, 3, 5]),
        cube=rng.random() < 0.8,
        last_roll=rng.random() < 0.5,
        series_start=rng.choice(list(SeriesStart)),
    )
    state = GameState.new_match(config)
    docs = [to_dict(state)]
    for _ in range(400):
        if state.phase is Phase.MATCH_OVER:
            break
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            if state.cube_available and rng.random() < 0.1:
                state = state.double()
            else:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.DOUBLED:
            state = state.take() if rng.random() < 0.8 else state.drop()
        elif state.phase is Phase.GAME_OVER:
            state = state.next_game()
        else:
            while state.legal_steps() and rng.random() < 0.7:
                state = state.step(rng.choice(state.legal_steps()))
                if rng.random() < 0.2:
                    docs.append(to_dict(state))
            plays = state.legal_plays()
            state = state.play(rng.choice(plays)) if plays else state.confirm()
        if rng.random() < 0.15 or state.phase is not Phase.MOVE:
            docs.append(to_dict(state))
    return docs


NASTY: list[Any] = [
    None, True, False, 0, 1, 2, 3, 4, 6, 7, 9, 15, 16, 24, 25, 26, 63, 64, 65, -1, -4,
    10**30, -(10**30), 1.5, float("nan"), "", "x", "classic", "long", "move", "roll",
    "opening", "doubled", "game_over", "match_over", "white", "single", "played", "loser",
    [], [0], [0, 0], [1, 1], [9, 9], [6, 6, 6], [None, None], {}, {"a": 1},
    [[0] * 26, [0] * 26], [[1, 2, 3, 1]], [[25, 20, 5, 0]],
]  # fmt: skip


def _leaves(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a document: keys of objects, indexes of lists."""
    out = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _leaves(v, (*path, i))
    return out


def _exercise(state: GameState) -> None:
    """Every action of the phase, each either done or refused with an EngineError."""

    def attempt(action: Any) -> GameState | None:
        try:
            return action()
        except EngineError:
            return None

    state.pips(state.turn)
    state.resign_value(state.turn)
    assert from_dict(json.loads(json.dumps(to_dict(state)))) == state
    attempt(lambda: state.resign(state.turn))
    attempt(lambda: state.timeout(state.turn.other))
    moving = None
    if state.phase is Phase.OPENING:
        attempt(lambda: state.roll_opening(2, 2))
        moving = attempt(lambda: state.roll_opening(3, 1))
    elif state.phase is Phase.ROLL:
        doubled = attempt(state.double)
        if doubled is not None:
            attempt(doubled.take)
            attempt(doubled.drop)
        moving = attempt(lambda: state.roll(6, 6))
    elif state.phase is Phase.DOUBLED:
        attempt(state.take)
        attempt(state.drop)
    elif state.phase is Phase.GAME_OVER:
        attempt(state.next_game)
    elif state.phase is Phase.MOVE:
        moving = state
    if moving is None or moving.phase is not Phase.MOVE:
        return
    plays = moving.legal_plays()
    steps = moving.legal_steps()
    assert moving.dice_left is not None
    if steps:
        after = moving.step(steps[0])
        after.legal_steps()
        after.undo()
    if moving.steps:
        moving.undo()
    attempt(moving.confirm)
    if plays:
        moving.play(plays[0])
    else:
        moving.confirm()


def test_mutated_real_documents_load_into_working_states_or_are_refused():
    """Thousands of one-field changes of real documents: refused, or a state that works."""
    rng = random.Random(7)
    docs = [doc for seed in range(24) for doc in _documents(seed)]
    for doc in docs:  # every real document loads, and saves back unchanged
        assert to_dict(from_dict(copy.deepcopy(doc))) == doc
    tried = refused = 0
    for doc in docs:
        paths = _leaves(doc)
        for _ in range(12):
            path = rng.choice(paths)
            bad = copy.deepcopy(doc)
            parent = bad
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and rng.random() < 0.1:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(NASTY))
            tried += 1
            try:
                state = from_dict(bad)
            except InvalidInputError:
                refused += 1
                continue
            _exercise(state)
    assert tried >= 3000, tried
    assert 0 < refused < tried  # most changes are refused, some are harmless
