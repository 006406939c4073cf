"""GNU Backgammon's text interface (``gnubg -t``), driven in batches by the benchmarks that
measure Tavola against it (cube decisions, hints, analysis).

One process per batch: gnubg takes seconds to load its networks and databases, so the
commands for every position or match of a run go through a single standard input.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

#: Where Debian's package puts the program when ``/usr/games`` is not on the PATH.
DEBIAN_PATH = "/usr/games/gnubg"


def gnubg_path() -> str | None:
    """The gnubg program, or None when it is not installed."""
    found = shutil.which("gnubg") or DEBIAN_PATH
    return found if Path(found).exists() else None


def run_batch(commands: list[str], timeout: float) -> str:
    """What gnubg prints for ``commands``, one per line, run in one quiet process.

    gnubg's exit status says nothing about the commands (it answers errors in its output),
    so the caller reads the output; a missing program is the caller's to check first."""
    gnubg = gnubg_path()
    if gnubg is None:
        raise FileNotFoundError("GNU Backgammon (gnubg) is not installed")
    run = subprocess.run(
        [gnubg, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
    return run.stdout
