"""Fixtures of the bot's unit tests: shared budgets in the real Redis-protocol server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.adapters.ratelimit import ChatRateLimiter
from storage.budgets import Budget, SharedBudgets
from tests.valkey_cluster import delete_prefixed

BOT_ID = 4242
#: A limiter's budgets by name (count, period): tiny, so that tests run in tenths of seconds.
LimiterFactory = Callable[..., ChatRateLimiter]


@pytest.fixture
async def budgets_redis(redis_url: str) -> AsyncIterator[tuple[aioredis.Redis, str]]:
    """A client and a key prefix of this test's own (its keys are deleted afterwards)."""
    prefix = f"tavola-test:{uuid.uuid4().hex[:12]}:v1"
    client = aioredis.Redis.from_url(redis_url, decode_responses=False)
    try:
        yield client, prefix
    finally:
        await delete_prefixed(client, prefix)
        await client.aclose()


@pytest.fixture
def new_limiter(budgets_redis: tuple[aioredis.Redis, str]) -> LimiterFactory:
    """``new_limiter(overall=(n, s), group=(n, s), private=(n, s), max_retries=k)``: a
    limiter of the test's budgets; every limiter made by one test shares them, as the
    workers of one token do."""
    client, prefix = budgets_redis

    def make(
        *,
        overall: tuple[int, float] = (100, 0.3),
        group: tuple[int, float] = (2, 0.3),
        private: tuple[int, float] = (3, 0.3),
        max_retries: int = 2,
        **_: Any,
    ) -> ChatRateLimiter:
        budgets = SharedBudgets(client, prefix, BOT_ID, overall=Budget(*overall))
        return ChatRateLimiter(
            budgets, group=Budget(*group), private=Budget(*private), max_retries=max_retries
        )

    return make
