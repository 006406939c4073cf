"""``python -m engine.ai choose``: the computer's play for JSON lines on stdin.

Each input line is a conformance request of the engine (classic: ``position_id`` and
``dice``; long: ``board``, ``off``, ``mover``, ``first_turn``, ``opening``, ``dice``) plus
``"level"`` and an optional ``"seed"``. Each output line is ``{"play": {...}}`` in the
conformance format, ``{"play": null}`` when no checker can move, or ``{"error": ...}``.
The answer to a line is flushed before the next line is read, so another program can
play whole games through a pipe.
"""

from __future__ import annotations

import random
import sys
from typing import Any, TextIO

from engine.ai.levels import Level, choose_play
from engine.conformance import parse_line, play_to_json, serve, state_from_request
from engine.errors import EngineError


def answer(line: str) -> dict[str, Any]:
    try:
        req = parse_line(line)
        if not isinstance(req, dict):
            return {"error": "each line must be a JSON object"}
        level_name = req.get("level")
        try:
            if not isinstance(level_name, str):  # missing, or not text
                raise ValueError(level_name)
            level = Level(level_name)
        except ValueError:
            return {"error": "level must be 'facile', 'medio' or 'difficile'"}
        seed = req.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            return {"error": "seed must be an integer"}
        state = state_from_request(req)
        play = choose_play(state, level, random.Random(seed))
        return {"play": None if play is None else play_to_json(state, play)}
    except EngineError as exc:
        return {"error": str(exc)}


def run(stdin: TextIO, stdout: TextIO) -> None:
    serve(answer, stdin, stdout)


USAGE = "usage: python -m engine.ai choose   (JSON lines on stdin, one play per line)"


def main(argv: list[str]) -> int:
    if argv[:1] == ["choose"]:
        run(sys.stdin, sys.stdout)
        return 0
    print(USAGE, file=sys.stderr)
    return 2
