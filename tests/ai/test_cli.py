"""``python -m engine.ai choose``: one flushed JSON answer per line, legal plays only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.conformance import answer as conformance_answer

ROOT = Path(__file__).resolve().parents[2]
START = "4HPwATDgc/ABMA"
LONG_START = [0] * 11 + [-15] + [0] * 11 + [15]


def test_answers_line_by_line_with_legal_plays() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.ai", "choose"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    requests = [
        {"variant": "classic", "position_id": START, "dice": [3, 1], "level": "difficile"},
        {"variant": "classic", "position_id": START, "dice": [6, 5], "level": "facile", "seed": 4},
        {
            "variant": "long",
            "board": LONG_START,
            "off": [0, 0],
            "mover": "white",
            "first_turn": True,
            "opening": None,
            "dice": [6, 6],
            "level": "medio",
        },
    ]
    try:
        for req in requests:
            # Write one line and read its answer before sending the next: this only works
            # if the command flushes after each answer.
            proc.stdin.write(json.dumps(req) + "\n")
            proc.stdin.flush()
            got = json.loads(proc.stdout.readline())
            legal = conformance_answer(json.dumps(req))["plays"]
            assert got["play"] in legal
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_null_play_and_errors() -> None:
    # White on the bar against Black's closed board (Black's home is White's 19..24).
    from engine.gnubg import encode_position

    white = [0] * 26
    white[25], white[13] = 1, 14
    black = [0] * 26
    for p in range(1, 7):
        black[p] = 2
    black[13] = 3
    pid = encode_position(tuple(black), tuple(white))
    lines = [
        {"variant": "classic", "position_id": pid, "dice": [6, 5], "level": "medio"},
        {"variant": "classic", "position_id": START, "dice": [6, 5], "level": "expert"},
        {"variant": "classic", "position_id": START, "dice": [7, 5], "level": "medio"},
    ]
    text = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n"
    out = subprocess.run(
        [sys.executable, "-m", "engine.ai", "choose"],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert answers[0] == {"play": None}
    assert all("error" in a for a in answers[1:])
    assert len(answers) == 4
