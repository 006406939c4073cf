"""A real Redis-protocol server for the storage tests: ``REDIS_URL`` when set, else an
embedded Valkey in a temporary directory. Each test works under its own key prefix and
deletes its keys afterwards, so tests never see each other's data (and a shared ``REDIS_URL``
server is never flushed)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from storage.models import StorageConfig
from storage.repository import GameRepository
from storage.schema import SchemaRegistry

SCHEMA_VERSION = 2


@pytest.fixture
def key_prefix() -> str:
    return f"tavola-test:{uuid.uuid4().hex[:12]}:v1"


@pytest.fixture
async def redis_client(redis_url: str, key_prefix: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url, decode_responses=False)
    try:
        yield client
    finally:
        keys = [key async for key in client.scan_iter(match=f"{key_prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
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
    redis_client: aioredis.Redis, schema: SchemaRegistry, storage_config: StorageConfig
) -> GameRepository:
    return GameRepository(redis_client, schema, storage_config)
