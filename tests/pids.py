"""What the tests ask of the operating system about the bot's processes."""

from __future__ import annotations

from pathlib import Path


def running(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists and is not a zombie (dead, not yet reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat.rsplit(b")", 1)[1].split()[0] != b"Z"
