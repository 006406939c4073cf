"""A real Redis-protocol server for the storage tests, each test run twice: on one server
(``REDIS_URL`` when set, else an embedded Valkey in a temporary directory) and on a real
Valkey Cluster of three masters (the ``valkey_cluster`` fixture), where every script must keep
to one hash slot or the server refuses it. Each test works under its own key prefix and
deletes its keys afterwards, so tests never see each other's data (and a shared ``REDIS_URL``
server is never flushed)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from storage.connect import Client, make_client
from storage.models import StorageConfig
from storage.repository import GameRepository
from storage.schema import SchemaRegistry
from tests.valkey_cluster import delete_prefixed

SCHEMA_VERSION = 2


@pytest.fixture
def key_prefix() -> str:
    return f"tavola-test:{uuid.uuid4().hex[:12]}:v1"


@pytest.fixture(scope="session", params=["single", "cluster"])
def redis_url(request: pytest.FixtureRequest, redis_url: str) -> str:
    """The single server's URL, or the local cluster's (``redis+cluster://``)."""
    if request.param == "cluster":
        return str(request.getfixturevalue("valkey_cluster").url)
    return redis_url


@pytest.fixture
async def redis_client(redis_url: str, key_prefix: str) -> AsyncIterator[Client]:
    client = make_client(redis_url)
    await client.ping()  # a cluster client learns the cluster before concurrent use
    try:
        yield client
    finally:
        await delete_prefixed(client, key_prefix)
        await client.aclose()


@pytest.fixture
def schema() -> SchemaRegistry:
    """Schema 2 is current; documents at schema 1 lack "cube" and get it on load."""
    registry = SchemaRegistry(current=SCHEMA_VERSION)
    registry.add(1, lambda doc: {**doc, "cube": 1})
    return registry


@pytest.fixture
def storage_config(key_prefix: str) -> StorageConfig:
    return StorageConfig(prefix=key_prefix)


@pytest.fixture
def repo(
    redis_client: Client, schema: SchemaRegistry, storage_config: StorageConfig
) -> GameRepository:
    return GameRepository(redis_client, schema, storage_config)
