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


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(bus_offset: int | None = None) -> int:
    """A port nothing listens on, which the OS will not give to any other socket.

    With ``bus_offset``, ``port + bus_offset`` is such a port too (a Valkey Cluster node
    listens on its port and on a bus port 10000 above it): both lie outside the ephemeral
    range and neither has been handed out before.
    """
    low, high = _ephemeral_range()
    share = _share()
    if bus_offset is not None:
        share = [p for p in share if p + bus_offset < 65_536 and not low <= p + bus_offset <= high]
    for _ in range(1000):
        port = random.choice(share)
        pair = [port] if bus_offset is None else [port, port + bus_offset]
        if any(p in _handed_out for p in pair) or not all(_bindable(p) for p in pair):
            continue
        _handed_out.update(pair)
        return port
    raise RuntimeError("no free port outside the ephemeral range")
