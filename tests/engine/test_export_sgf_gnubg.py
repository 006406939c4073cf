"""GNU Backgammon reads our exports as they were played: a classic match without the cube,
exported as SGF, is analysed with no cube decision at all (the same match as ``.mat`` gets
phantom cube decisions), and the long nardy record is refused rather than misread.

Optional: runs only where gnubg (Debian package ``gnubg``) is installed; otherwise it is
skipped with the reason. The analysis runs at 0 ply: what is checked is which decisions
gnubg counts, not their values.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from match_support import random_match
from test_export_gnubg import positions

from engine import MatchConfig, Variant, parse_match, write_match, write_sgf

GNUBG = shutil.which("gnubg", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
pytestmark = pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (apt install gnubg)")

CUBELESS = (
    MatchConfig(Variant.CLASSIC, 3, cube=False),
    MatchConfig(Variant.CLASSIC, 0, cube=False),
)
_CUBE_DECISIONS = re.compile(r"^Total cube decisions\s+(\d+)\s+(\d+)", re.MULTILINE)


def _gnubg(commands: list[str]) -> str:
    assert GNUBG is not None
    done = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize("config", CUBELESS, ids=["match", "money"])
def test_a_cubeless_game_exported_as_sgf_has_no_cube_decision_for_gnubg(
    tmp_path: Path, config: MatchConfig
) -> None:
    match, _ = random_match(config, 3)
    mat, sgf, back = tmp_path / "m.mat", tmp_path / "m.sgf", tmp_path / "back.mat"
    mat.write_text(write_match(match), encoding="utf-8")
    sgf.write_text(write_sgf(match), encoding="utf-8")
    analyse = ["analyse match", "show statistics match"]
    log = _gnubg(
        [
            "set analysis chequerplay evaluation plies 0",
            "set analysis cubedecision evaluation plies 0",
            f"import mat {mat}",
            *analyse,
            f"load match {sgf}",
            *analyse,
            f"export match mat {back}",
        ]
    )
    assert "Invalid" not in log and "Unrecognised" not in log, log
    as_mat, as_sgf = (tuple(map(int, m)) for m in _CUBE_DECISIONS.findall(log))
    assert sum(as_mat) > 0  # the .mat's Cube "off" tag is ignored: every turn is a cube turn
    assert as_sgf == (0, 0)
    # And every move was read as played: gnubg's own export of the SGF replays the same.
    # (gnubg's .mat has no tag for the cube: ours tells our reader, for Jacoby's sake.)
    theirs = parse_match('; [Cube "off"]\n' + back.read_text(encoding="utf-8"))
    assert positions(theirs) == positions(match)
    final = theirs.games[-1]
    assert (final.winner, final.points) == (match.games[-1].winner, match.games[-1].points)


def test_gnubg_refuses_the_long_record_instead_of_misreading_it(tmp_path: Path) -> None:
    match, _ = random_match(MatchConfig(Variant.LONG, 3), 3)
    record = tmp_path / "serie.txt"
    record.write_text(write_match(match), encoding="utf-8")
    log = _gnubg([f"import mat {record}", "show score"])
    assert "not a valid .mat file" in log
    assert "Invalid move" not in log
    assert "(after 0 games)" in log  # no match was built
