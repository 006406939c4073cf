"""Ports for the servers the tests start in another process (a bot, a health server).

A port found with ``bind(("127.0.0.1", 0))`` and closed again lies in the ephemeral range,
where the OS goes on handing ports out to every other socket (the fake Telegram of a test
running beside, any outgoing connection) until the process it was meant for binds it: the
bot then cannot listen, and the test talks to someone else's server. The ports handed out
here lie outside that range, where the OS gives nothing out by itself, and each
pytest-xdist worker draws from its own share, so two tests running at once never meet.
"""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

_BELOW_EPHEMERAL = 12_000  # how many ports under the ephemeral range are used
_handed_out: set[int] = set()  # never twice: a bot of an earlier test may still hold one


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[:2]
        return int(low), int(high)
    except (OSError, ValueError):
        return 32_768, 60_999  # Linux's default


def _share() -> list[int]:
    """This pytest-xdist worker's ports (all of them outside pytest-xdist)."""
    low, high = _ephemeral_range()
    ports = [*range(max(1024, low - _BELOW_EPHEMERAL), low), *range(high + 1, 65_536)]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or "0")
    return ports[worker::workers]


def free_port() -> int:
    """A port nothing listens on, which the OS will not give to any other socket."""
    share = _share()
    for _ in range(1000):
        port = random.choice(share)
        if port in _handed_out:
            continue
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise RuntimeError("no free port outside the ephemeral range")
