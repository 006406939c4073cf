"""Handled-updates benchmark: Redis bytes spent remembering each handled Telegram update.

Run from the repository root: ``python -m benchmarks.handled [--updates N] [--chats N]``.

It starts its own embedded Valkey, claims ``--updates`` consecutive update ids (as Telegram
numbers them: one sequence per bot) spread over ``--chats`` chats through
``GameRepository.claim_update_from``, the call every update goes through, then sums
``MEMORY USAGE`` over every key the claims left and divides by the number of updates. It also
reports the growth of the server's ``used_memory`` (which also counts the expiry of each key)
and the claims per second of one client (one round trip each).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import redis.asyncio as aioredis

from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig

BOT_ID = 123456
FIRST_UPDATE = 700_000_000  # Telegram's ids start from some large positive number
PREFIX = "bench:v1"


async def measure(url: str, updates: int, chats: int, seed: int) -> None:
    client = aioredis.Redis.from_url(url, decode_responses=False)
    try:
        repo = GameRepository(client, SchemaRegistry(current=1), StorageConfig(prefix=PREFIX))
        rng = random.Random(seed)
        before = {key async for key in client.scan_iter(match=f"{PREFIX}:*", count=1000)}
        used_before = (await client.info("memory"))["used_memory"]
        started = time.perf_counter()
        for n in range(updates):
            chat = -rng.randrange(1, chats + 1)
            claimed, _ = await repo.claim_update_from(BOT_ID, FIRST_UPDATE + n, chat, 86_400)
            assert claimed
        elapsed = time.perf_counter() - started
        used = (await client.info("memory"))["used_memory"] - used_before
        keys = [
            key
            async for key in client.scan_iter(match=f"{PREFIX}:*", count=1000)
            if key not in before
        ]
        total = 0
        for key in keys:
            total += await client.memory_usage(key, samples=0) or 0
        probes = range(0, updates, max(updates // 100, 1))
        duplicates = 0
        for n in probes:
            claimed, _ = await repo.claim_update_from(BOT_ID, FIRST_UPDATE + n, None, 86_400)
            duplicates += not claimed
        print(
            f"{updates} updates over {chats} chats: {len(keys)} keys, {total} bytes, "
            f"{total / updates:.2f} bytes per update (MEMORY USAGE), "
            f"{used / updates:.2f} (used_memory); {updates / elapsed:.0f} claims/s; "
            f"{duplicates} of {len(probes)} redeliveries refused"
        )
    finally:
        await client.aclose()


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tavola-handled-") as tmp:
        valkey = EmbeddedValkey(Path(tmp))
        await asyncio.to_thread(valkey.start)
        try:
            await measure(valkey.url, args.updates, args.chats, args.seed)
        finally:
            await asyncio.to_thread(valkey.stop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.handled", description=__doc__)
    parser.add_argument("--updates", type=int, default=100_000, help="updates claimed (100000)")
    parser.add_argument("--chats", type=int, default=1000, help="chats they come from (1000)")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
