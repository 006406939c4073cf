"""Running ``python -m bot`` as a real process for the end-to-end tests."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_bot(env: dict[str, str]) -> asyncio.subprocess.Process:
    """``python -m bot`` configured by ``env`` alone (this process's REDIS_URL and
    WEBHOOK_URL are not inherited). No health server unless ``env`` asks for one: its
    default port would be shared by the bots of tests running at once."""
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEBHOOK_URL")}
    base["TAVOLA_HEALTH_PORT"] = "0"
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def stop_bot(proc: asyncio.subprocess.Process) -> str:
    """SIGTERM, as a platform does; the bot must exit cleanly. Returns its log."""
    proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode()
    assert proc.returncode == 0, log
    return log
