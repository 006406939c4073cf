"""The painter's wait for a chat's budget (``ChatRateLimiter.wait_ready``) costs no round
trip: it goes by what this process last heard, and the request that follows takes its place
in the shared budgets (real Redis), waiting there if another worker used the budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

from bot.adapters.ratelimit import ChatRateLimiter
from storage.budgets import Budget, SharedBudgets, Verdict
from tests.bot.conftest import BOT_ID

GROUP = -1001
WINDOW = 0.3


class CountedBudgets(SharedBudgets):
    """The real shared budgets, counting the times they are asked."""

    asked = 0

    async def take(self, *args: Any, **kwargs: Any) -> Verdict:
        self.asked += 1
        return await super().take(*args, **kwargs)


def limiters(client: aioredis.Redis, prefix: str) -> tuple[ChatRateLimiter, CountedBudgets]:
    budgets = CountedBudgets(client, prefix, BOT_ID, overall=Budget(100, WINDOW))
    return ChatRateLimiter(budgets, group=Budget(2, WINDOW)), budgets


async def test_the_wait_asks_nobody_and_the_request_still_keeps_the_budget(
    budgets_redis: tuple[aioredis.Redis, str], new_limiter: Callable[..., ChatRateLimiter]
) -> None:
    other = new_limiter(group=(2, WINDOW))  # another worker of the same token
    answered: list[float] = []

    async def call() -> bool:
        answered.append(asyncio.get_running_loop().time())
        return True

    for _ in range(2):
        await other.process_request(call, (), {}, "sendPhoto", {"chat_id": GROUP}, None)
    painter_side, budgets = limiters(*budgets_redis)

    await asyncio.wait_for(painter_side.wait_ready(GROUP), 0.1)  # heard nothing: at once
    assert budgets.asked == 0

    # The board's own request finds the budget used by the other worker, and waits.
    await painter_side.process_request(call, (), {}, "sendPhoto", {"chat_id": GROUP}, None)
    assert budgets.asked >= 2  # refused once, then taken
    assert painter_side.counters(GROUP).delayed == 1
    assert answered[2] >= answered[0] + WINDOW - 0.005
