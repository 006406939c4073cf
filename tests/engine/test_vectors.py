"""The shared vectors (gnubg for classic, an independent implementation for long), driven
through the conformance command's functions and once through ``python -m engine conformance``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.conformance import answer, answers

ROOT = Path(__file__).resolve().parents[2]


def load(vectors_dir: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (vectors_dir / name).read_text().splitlines() if line]


def expected(case: dict) -> list:
    if case["variant"] == "classic":
        return sorted(case["results"])
    return sorted(json.dumps([r["board"], r["off"]]) for r in case["results"])


def got(case: dict, reply: dict) -> list:
    assert "error" not in reply, reply
    if case["variant"] == "classic":
        return sorted(p["position_id"] for p in reply["plays"])
    return sorted(json.dumps([p["board"], p["off"]]) for p in reply["plays"])


@pytest.mark.parametrize("name", ["classic_legal_plays.jsonl", "long_legal_plays.jsonl"])
def test_conformance_answers_match_every_vector(vectors_dir, name):
    cases = load(vectors_dir, name)
    assert len(cases) == 300
    for case in cases:
        assert got(case, answer(json.dumps(case))) == expected(case), case


def test_conformance_command_over_a_pipe_answers_every_line_and_survives_errors(vectors_dir):
    cases = load(vectors_dir, "classic_legal_plays.jsonl") + load(
        vectors_dir, "long_legal_plays.jsonl"
    )
    bad = ["not json", json.dumps({"variant": "classic", "position_id": "xx", "dice": [1, 2]})]
    lines = [bad[0], *(json.dumps(c) for c in cases), bad[1]]
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "conformance"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(lines)
    assert "error" in replies[0] and "error" in replies[-1]
    for case, reply in zip(cases, replies[1:-1], strict=True):
        assert got(case, reply) == expected(case)


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"variant": "classic", "position_id": "4HPwATDgc/ABMA", "dice": [0, 3]}, "die"),
        ({"variant": "classic", "position_id": "4HPwATDgc/ABMA", "dice": [7, 3]}, "die"),
        ({"variant": "classic", "position_id": "4HPwATDgc/ABM", "dice": [1, 3]}, "Position ID"),
        ({"variant": "chess", "dice": [1, 3]}, "variant"),
        (
            {
                "variant": "long",
                "board": [1] * 24,
                "off": [0, 0],
                "mover": "white",
                "first_turn": False,
                "dice": [1, 2],
            },
            "checkers",
        ),
        (
            {
                "variant": "long",
                "board": [0] * 24,
                "off": ["a", 0],
                "mover": "white",
                "first_turn": False,
                "dice": [1, 2],
            },
            "off",
        ),
        (
            {
                "variant": "long",
                "board": [15] + [0] * 11 + [-15] + [0] * 11,
                "off": [0, 0],
                "mover": "red",
                "first_turn": False,
                "dice": [1, 2],
            },
            "mover",
        ),
        ([1, 2], "object"),
    ],
)
def test_conformance_bad_requests_answer_an_error_that_says_what_is_wrong(request_, words):
    reply = answer(json.dumps(request_))
    assert set(reply) == {"error"}
    assert words in reply["error"]


def test_conformance_skips_blank_lines():
    assert list(answers(["", "  \n"])) == []
