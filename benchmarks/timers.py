"""Timer benchmark: what turn timers kept in Redis cost as the number of timed games grows.

Run from the repository root: ``python -m benchmarks.timers [--games 1000,10000,100000]``.
It starts its own embedded Valkey in a temporary directory, stores that many timed games'
deadlines and reminders, and measures setting and cancelling a chat's timers, and a poll
(the claim of due timers every worker runs twice a second) with nothing due and with a
batch due. Start-up has no timer work at all: a worker's first poll is its whole start.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import redis.asyncio as aioredis

from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig

SAMPLES = 500
FAR = 4 * 10**12  # ms: a due time far in the future (2096)


async def _fill(client: aioredis.Redis, repo: GameRepository, games: int) -> None:
    for start in range(0, games, 10_000):
        chats = range(start, min(games, start + 10_000))
        async with client.pipeline(transaction=False) as pipe:
            pipe.zadd(repo.keys.deadlines(), {str(-c): FAR + c for c in chats})
            pipe.zadd(repo.keys.reminders(), {str(-c): FAR + c - 120_000 for c in chats})
            await pipe.execute()


async def _mean_ms(samples: int, step: object) -> float:
    assert callable(step)
    started = time.perf_counter()
    for i in range(samples):
        await step(i)
    return (time.perf_counter() - started) * 1000 / samples


async def run(url: str, games: int) -> None:
    client = aioredis.Redis.from_url(url, decode_responses=False)
    repo = GameRepository(
        client, SchemaRegistry(current=1), StorageConfig(prefix=f"bench-timers:{games}:v1")
    )
    await _fill(client, repo, games)
    now = time.time()

    async def set_timers(i: int) -> None:
        await repo.set_deadline(10**9 + i, now + 600)
        await repo.set_reminder(10**9 + i, now + 480)

    async def cancel(i: int) -> None:
        await repo.cancel_timers(10**9 + i)

    async def poll(_: int) -> None:
        await repo.claim_due_timers("deadline", 15)
        await repo.claim_due_timers("reminder", 15)

    set_ms = await _mean_ms(SAMPLES, set_timers)
    cancel_ms = await _mean_ms(SAMPLES, cancel)
    idle_ms = await _mean_ms(SAMPLES, poll)
    for i in range(64):
        await repo.set_deadline(2 * 10**9 + i, now - 1)
    started = time.perf_counter()
    claimed = await repo.claim_due_timers("deadline", 15)
    batch_ms = (time.perf_counter() - started) * 1000
    print(
        f"{games:>7} timed games: set {set_ms:.3f} ms, cancel {cancel_ms:.3f} ms, "
        f"poll (nothing due) {idle_ms:.3f} ms, claim of {len(claimed)} due {batch_ms:.2f} ms"
    )
    keys = [key async for key in client.scan_iter(match="bench-timers:*", count=1000)]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000,10000,100000")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedValkey(Path(tmp) / "valkey")
        server.start()
        try:
            for games in (int(n) for n in args.games.split(",")):
                asyncio.run(run(server.url, games))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
