"""Legal plays compared with GNU Backgammon on a few hundred positions of random games.

Optional: runs only where gnubg (Debian package ``gnubg``) is installed; otherwise it is
skipped with the reason. gnubg's ``hint`` lists every legal play in its notation; each is
read with our parser and the sets of resulting positions must be equal. The Position ID and
Match ID of a few match situations (a 1-point match, a double offered, taken, dropped) are
compared with the ones gnubg shows after the same commands.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GameState, MatchConfig, Phase, Variant
from engine import gnubg as ids
from engine.gnubg import encode_position
from engine.notation import read_play

GNUBG = shutil.which("gnubg", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
pytestmark = pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (apt install gnubg)")

SCRIPT = """
import json, gnubg
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new game")
out = []
for pid, d1, d2 in json.load(open(%r)):
    gnubg.command("set board " + pid)
    gnubg.command("set dice %%d %%d" %% (d1, d2))
    try:
        moves = [m["move"] for m in gnubg.hint(100000)["hint"]]
    except Exception:
        moves = []
    out.append(moves)
json.dump(out, open(%r, "w"))
"""


def sample_states(count: int, seed: int = 7) -> list[GameState]:
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state = GameState.new_match(MatchConfig(Variant.CLASSIC))
        while not state.is_over and len(out) < count:
            if state.phase is Phase.OPENING:
                state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
                continue
            if state.phase is Phase.ROLL:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
            if rng.random() < 0.3:
                out.append(state)
            plays = state.legal_plays()
            state = state.play(rng.choice(plays)) if plays else state.confirm()
    return out


def test_legal_plays_agree_with_gnubg(tmp_path: Path):
    states = sample_states(300)
    requests = []
    for s in states:
        mine, theirs = s.turn_start[s.turn], s.turn_start[s.turn.other]
        requests.append([encode_position(theirs, mine), *s.dice])
    (tmp_path / "in.json").write_text(json.dumps(requests))
    script = tmp_path / "hint.py"
    script.write_text(SCRIPT % (str(tmp_path / "in.json"), str(tmp_path / "out.json")))
    subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)],
        capture_output=True,
        timeout=300,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    answers = json.loads((tmp_path / "out.json").read_text())
    assert len(answers) == len(states)
    for s, moves in zip(states, answers, strict=True):
        mine = s.turn_start[s.turn]
        ours = {p.key for p in s.legal_plays()}
        theirs_ = {read_play(s, m).key for m in moves}
        assert theirs_ == ours, (encode_position(s.turn_start[s.turn.other], mine), s.dice, moves)
        assert len(moves) == len(ours)


IDS_SCRIPT = """
import json, gnubg
for name in ("set player 0 human", "set player 1 human", "set automatic game off",
             "set automatic roll off"):
    gnubg.command(name)
out = []
for commands in json.load(open(%r)):
    for command in commands:
        gnubg.command(command)
    out.append([gnubg.positionid(), gnubg.matchid()])
json.dump(out, open(%r, "w"))
"""


def _opened_and_played(length: int) -> GameState:
    """White (gnubg's player 0) opens 3-1 and plays 8/5 6/5."""
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, length)).roll_opening(3, 1)
    return state.play(read_play(state, "8/5 6/5"))


def test_ids_of_match_situations_agree_with_gnubg(tmp_path: Path):
    opening = ["set turn 0", "set dice 3 1"]
    doubled = [*opening, "move 8/5 6/5", "double"]
    cases = [
        (["new match 1", *opening], GameState.new_match(MatchConfig()).roll_opening(3, 1)),
        (["new match 5", *doubled], _opened_and_played(5).double()),
        (["new match 5", *doubled, "take"], _opened_and_played(5).double().take()),
        (["new match 5", *doubled, "pass"], _opened_and_played(5).double().drop()),
    ]
    (tmp_path / "in.json").write_text(json.dumps([commands for commands, _ in cases]))
    script = tmp_path / "ids.py"
    script.write_text(IDS_SCRIPT % (str(tmp_path / "in.json"), str(tmp_path / "out.json")))
    subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)],
        capture_output=True,
        timeout=120,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    theirs = json.loads((tmp_path / "out.json").read_text())
    ours = [[ids.position_id_for(state), ids.match_id_for(state)] for _, state in cases]
    assert ours == theirs


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
