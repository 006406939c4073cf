"""Two webhook workers of one token share Telegram's budgets: together they never send a
group more than Telegram allows, and a 429 one of them receives pauses the chat for both.

Both run the real ``python -m bot`` in webhook mode against the fake with Telegram's limits
enforced; each update goes to one worker, in turn (a load balancer).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

import aiohttp
import pytest
import redis.asyncio as aioredis

from storage import EmbeddedValkey

from .fake_telegram import FakeTelegram, is_limited_method
from .processes import deliver_webhook, free_port, start_webhook_worker, wait_listening

pytestmark = pytest.mark.slow

SECRET = "shared-budgets-secret"
GROUP_BUDGET = 20  # sends and edits per minute in one group


@contextlib.asynccontextmanager
async def _two_workers(tg: FakeTelegram, redis_url: str) -> Any:
    ports = [free_port(), free_port()]
    workers = [await start_webhook_worker(tg, redis_url, port, SECRET) for port in ports]
    try:
        await asyncio.gather(*(wait_listening(port) for port in ports))
        yield ports
    finally:
        for proc in workers:
            proc.send_signal(signal.SIGTERM)
        logs = [(await asyncio.wait_for(p.communicate(), 30))[1].decode() for p in workers]
        assert all(p.returncode == 0 for p in workers), logs
        assert not any("error while handling" in log for log in logs), logs


async def test_two_workers_send_a_group_no_more_than_its_budget(
    own_valkey: EmbeddedValkey,
) -> None:
    """Thirty commands in a few seconds, half to each worker: the group gets its 20 answers
    and no 429 (each worker counting alone would have sent them all)."""
    async with (
        FakeTelegram(enforce_limits=True) as tg,
        aiohttp.ClientSession() as http,
        _two_workers(tg, own_valkey.url) as ports,
    ):
        anna = tg.user(1, "Anna")
        group = tg.group(-1009, "Circolo")
        for n in range(30):
            tg.send_message(group, anna, "/aiuto" if n % 2 else "/regole")
            for update in tg.pop_updates():
                await deliver_webhook(http, ports[n % 2], update, SECRET)
            await asyncio.sleep(0.05)
        await tg.settle(quiet=1.5, timeout=30)

        sent = [r for r in tg.requests if is_limited_method(r.method) and r.ok]
        assert len(sent) == GROUP_BUDGET  # the rest waits for the next minute, or was shed
        assert tg.retry_afters[group.id] == 0
        assert tg.limited_requests[group.id] == GROUP_BUDGET


async def _paused_in_redis(redis_url: str, chat_id: int, timeout: float = 20.0) -> None:
    client = aioredis.Redis.from_url(redis_url)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    try:
        while not [key async for key in client.scan_iter(match=f"*:pause:{chat_id}")]:
            assert loop.time() < deadline, "the 429's pause was never shared"
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()


async def test_a_429_pauses_the_group_for_both_workers(own_valkey: EmbeddedValkey) -> None:
    """Telegram refuses one worker's reply with "retry after 3": the other worker, asked
    next, waits those seconds too instead of earning a 429 of its own."""
    async with (
        FakeTelegram(enforce_limits=True) as tg,
        aiohttp.ClientSession() as http,
        _two_workers(tg, own_valkey.url) as ports,
    ):
        anna = tg.user(1, "Anna")
        group = tg.group(-1009, "Circolo")
        tg.inject_retry_after(group, 3)
        tg.send_message(group, anna, "/regole")
        for update in tg.pop_updates():
            await deliver_webhook(http, ports[0], update, SECRET)
        await tg.wait_for(lambda r: r.error is not None and "retry after" in r.error, timeout=20)
        refused_at = asyncio.get_running_loop().time()
        # The refused worker writes the pause once it reads the 429: until then the other
        # worker could not know of it (nor could it on Telegram).
        await _paused_in_redis(own_valkey.url, group.id)
        tg.send_message(group, anna, "/aiuto")
        for update in tg.pop_updates():
            await deliver_webhook(http, ports[1], update, SECRET)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while sum(r.method == "sendMessage" and bool(r.ok) for r in tg.requests) < 2:
            assert loop.time() < deadline, "both replies, once the pause is over"
            await asyncio.sleep(0.1)
        await tg.settle(quiet=0.5, timeout=30)

        assert tg.retry_afters[group.id] == 1  # the injected one only
        answers = [r for r in tg.requests if r.method == "sendMessage" and r.ok]
        assert len(answers) == 2  # both replies, once the pause was over
        admitted = [at for at, chat in tg.admissions if chat == group.id]
        assert len(admitted) == 2
        assert all(at >= refused_at + 2.5 for at in admitted)


async def test_two_workers_send_no_more_than_thirty_a_second_in_all(
    own_valkey: EmbeddedValkey,
) -> None:
    """Forty groups ask at once, half of them through each worker: every group is answered,
    never more than 30 a second (each worker counting alone would have sent 40 at once)."""
    async with (
        FakeTelegram(enforce_limits=True) as tg,
        aiohttp.ClientSession() as http,
        _two_workers(tg, own_valkey.url) as ports,
    ):
        anna = tg.user(1, "Anna")
        groups = [tg.group(-2000 - n, f"Tavolo {n}") for n in range(40)]
        for group in groups:
            tg.send_message(group, anna, "/regole")
        await asyncio.gather(
            *(
                deliver_webhook(http, ports[n % 2], u, SECRET)
                for n, u in enumerate(tg.pop_updates())
            )
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while sum(r.method == "sendMessage" and bool(r.ok) for r in tg.requests) < len(groups):
            assert loop.time() < deadline, "every group answered"
            await asyncio.sleep(0.1)

        assert sum(tg.retry_afters.values()) == 0
        times = sorted(at for at, _ in tg.admissions)
        assert (
            max(sum(1 for later in times[i:] if later - at < 1.0) for i, at in enumerate(times))
            <= 30
        )
