"""The fake's flood limits in a private chat: about one message a second, short bursts
tolerated (a token bucket), never kinder than that."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Bot
from telegram.error import RetryAfter

from bot.adapters.ratelimit import retry_seconds

from .fake_telegram import PRIVATE_LIMIT, FakeTelegram

# A tenth of Telegram's scale: a burst of 3, then one every 0.1 s.
FAST_PRIVATE = (3, 0.3)


@contextlib.asynccontextmanager
async def limited(**options: Any) -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    async with (
        FakeTelegram(enforce_limits=True, **options) as fake,
        Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url) as client,
    ):
        yield fake, client


def test_a_private_chat_allows_one_a_second_with_bursts_of_three() -> None:
    burst, refill = PRIVATE_LIMIT
    assert burst == 3
    assert refill / burst == 1.0  # one token a second


async def test_a_burst_passes_and_the_next_send_is_refused_until_a_token_returns() -> None:
    async with limited(private_limit=FAST_PRIVATE) as (tg, bot):
        chat = tg.private_chat(tg.user(1001, "Alice"))
        for n in range(3):
            await bot.send_message(chat.id, f"raffica {n}")
        with pytest.raises(RetryAfter) as refusal:
            await bot.send_message(chat.id, "troppo")
        assert retry_seconds(refusal.value) >= 1  # whole seconds, as Telegram says them
        assert tg.retry_afters[chat.id] == 1
        assert tg.limited_requests[chat.id] == 3


async def test_one_message_per_refill_is_never_refused_after_a_burst() -> None:
    """A human pace (one tap, one redraw per token's refill) goes on after the burst is spent,
    unlike a rolling window, which would hold every send after a burst for a whole window."""
    async with limited(private_limit=FAST_PRIVATE) as (tg, bot):
        chat = tg.private_chat(tg.user(1001, "Alice"))
        for n in range(3):
            await bot.send_message(chat.id, f"raffica {n}")
        for n in range(6):
            await asyncio.sleep(0.11)
            await bot.send_message(chat.id, f"al passo {n}")
        assert tg.retry_afters[chat.id] == 0
        assert tg.limited_requests[chat.id] == 9


async def test_a_sustained_pace_above_the_rate_is_refused() -> None:
    """Twice the rate: the burst absorbs the excess for a while, then Telegram says 429.

    The sends keep to a schedule (one every 0.05 s from the first), not to a pause after
    each: on a busy machine a send's own time would otherwise slow the pace below the rate.
    """
    async with limited(private_limit=FAST_PRIVATE) as (tg, bot):
        chat = tg.private_chat(tg.user(1001, "Alice"))
        refused = 0
        loop = asyncio.get_running_loop()
        start = loop.time()
        for n in range(12):
            try:
                await bot.send_message(chat.id, f"di corsa {n}")
            except RetryAfter:
                refused += 1
                break
            await asyncio.sleep(max(0.0, start + (n + 1) * 0.05 - loop.time()))
        assert refused == 1
        assert 4 <= tg.limited_requests[chat.id] <= 8


async def test_private_chats_have_buckets_of_their_own() -> None:
    async with limited(private_limit=FAST_PRIVATE) as (tg, bot):
        alice = tg.private_chat(tg.user(1001, "Alice"))
        bruno = tg.private_chat(tg.user(1002, "Bruno"))
        for n in range(3):
            await bot.send_message(alice.id, str(n))
        with pytest.raises(RetryAfter):
            await bot.send_message(alice.id, "no")
        for n in range(3):
            await bot.send_message(bruno.id, str(n))
        assert tg.retry_afters == {alice.id: 1}
