"""Our ``.mat`` files imported by GNU Backgammon, which must read every move as we wrote it.

Optional: runs only where gnubg (Debian package ``gnubg``) is installed; otherwise it is
skipped with the reason. gnubg imports each file, says nothing about an invalid or
unrecognised move, shows the final score, and exports the match again; our parser reads
that export, and replaying it must give the same position after every action, the same
cube and the same score as our own file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from match_support import random_match

from engine import MatchConfig, Variant
from engine.export import parse, write
from engine.transcript import MatchTranscript, replay_match

GNUBG = shutil.which("gnubg", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
pytestmark = pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (apt install gnubg)")

SEEDS = range(8)
CONFIGS = (MatchConfig(Variant.CLASSIC, 5), MatchConfig(Variant.CLASSIC, 1))


def positions(match: MatchTranscript) -> list[tuple[object, ...]]:
    return [
        (index, state.checkers, state.cube_value, state.score)
        for index, state, _ in replay_match(match)
    ]


def test_gnubg_reads_every_move_of_our_files(tmp_path: Path) -> None:
    assert GNUBG is not None
    ours: list[tuple[Path, Path, MatchTranscript]] = []
    commands = []
    for config in CONFIGS:
        for seed in SEEDS:
            match, _ = random_match(config, seed, names=("Anna Maria", "Bruno"))
            src = tmp_path / f"m{config.length}-{seed}.mat"
            out = tmp_path / f"m{config.length}-{seed}.gnubg.mat"
            src.write_text(write(match), encoding="utf-8")
            commands += [f"import mat {src}", "show score", f"export match mat {out}"]
            ours.append((src, out, match))
    done = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    log = done.stdout + done.stderr
    assert "Invalid move" not in log
    assert "Unrecognised" not in log
    for src, out, match in ours:
        theirs = parse(out.read_text(encoding="utf-8"))
        assert positions(theirs) == positions(match), src.name
        final = theirs.games[-1]
        assert (final.winner, final.points) == (match.games[-1].winner, match.games[-1].points)
