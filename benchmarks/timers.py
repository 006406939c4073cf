"""Timer benchmark: what turn timers kept in Redis cost as the number of timed games grows.

Run from the repository root: ``python -m benchmarks.timers [--games 1000,10000,100000]
[--cluster | --url URL]``. It starts its own embedded Valkey in a temporary directory (with
``--cluster``: a local three-master Valkey Cluster; ``--url``: any server, e.g. a
``redis+cluster://`` one), stores that many timed games' deadlines and reminders (spread over
the shards as the bot spreads them), and measures setting and cancelling a chat's timers, a
poll (the claim of due timers in every shard, which every worker runs twice a second) with
nothing due and with a batch due, and start-up: a new client, the key layout check and the
first poll, which is all the timer work a worker does when it starts.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig
from storage.connect import Client, make_client
from storage.keys import TIMER_SHARDS, shard_of

SAMPLES = 500
FAR = 4 * 10**12  # ms: a due time far in the future (2096)


async def _fill(client: Client, repo: GameRepository, games: int) -> None:
    for start in range(0, games, 10_000):
        by_shard: dict[int, list[int]] = {s: [] for s in range(TIMER_SHARDS)}
        for c in range(start, min(games, start + 10_000)):
            by_shard[shard_of(-c)].append(c)
        async with client.pipeline(transaction=False) as pipe:
            for shard, chats in by_shard.items():
                if chats:
                    deadlines = {str(-c): FAR + c for c in chats}
                    reminders = {str(-c): FAR + c - 120_000 for c in chats}
                    pipe.zadd(repo.keys.shard_deadlines(shard), deadlines)
                    pipe.zadd(repo.keys.shard_reminders(shard), reminders)
            await pipe.execute()


async def _mean_ms(samples: int, step: object) -> float:
    assert callable(step)
    started = time.perf_counter()
    for i in range(samples):
        await step(i)
    return (time.perf_counter() - started) * 1000 / samples


async def run(url: str, games: int) -> None:
    client = make_client(url)
    config = StorageConfig(prefix=f"bench-timers:{games}:v1")
    repo = GameRepository(client, SchemaRegistry(current=1), config)
    await _fill(client, repo, games)
    await repo.migrate_key_layout()  # the layout marker, as the first start writes it
    now = time.time()

    started = time.perf_counter()
    fresh = make_client(url)
    worker = GameRepository(fresh, SchemaRegistry(current=1), config)
    await worker.migrate_key_layout()
    await worker.claim_due_timers("deadline", 15)
    await worker.claim_due_timers("reminder", 15)
    startup_ms = (time.perf_counter() - started) * 1000
    await fresh.aclose()

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
        f"poll (nothing due) {idle_ms:.3f} ms, claim of {len(claimed)} due {batch_ms:.2f} ms, "
        f"start-up {startup_ms:.1f} ms"
    )
    keys = [key async for key in client.scan_iter(match="bench-timers:*", count=1000)]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000,10000,100000")
    parser.add_argument("--url", help="a server to use instead of an embedded one")
    parser.add_argument("--cluster", action="store_true", help="on a local Valkey Cluster")
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",")]
    if args.url:
        for games in counts:
            asyncio.run(run(args.url, games))
        return
    with tempfile.TemporaryDirectory() as tmp:
        if args.cluster:
            from tests.valkey_cluster import LocalCluster  # the tests' launcher

            cluster = LocalCluster(Path(tmp))
            cluster.start()
            try:
                for games in counts:
                    asyncio.run(run(cluster.url, games))
            finally:
                cluster.stop()
            return
        server = EmbeddedValkey(Path(tmp) / "valkey")
        server.start()
        try:
            for games in counts:
                asyncio.run(run(server.url, games))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
