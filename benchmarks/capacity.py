"""Capacity figures: what one turn and one stored game cost, for the capacity model.

Run from the repository root (one BLAS thread, as the bot's computer workers think)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python -m benchmarks.capacity
    python -m benchmarks.capacity --games 20 --seconds 60 --workers 2

It measures, in this order:

1. **A turn of the real bot**: first ``--idle`` seconds with no game (the Redis commands the
   workers' timer polls cost at rest, a fixed rate taken out of the per-turn figures); then
   ``benchmarks.load``'s setting (``--mode``: ``group`` = ``--games`` groups of two players;
   ``medio``/``difficile`` = private games against the computer), zero think time,
   Telegram's limits enforced by the fake, ``--latency`` per request, for ``--seconds``: the
   bot's CPU seconds per turn (its processes and children, rendering and the computer
   included), the Bot API requests per turn (all of them, and the sends and edits that count
   against Telegram's budgets), and the storage server's commands, bytes received and CPU per
   turn (``INFO commandstats``).
2. **What stays in Redis**: once the bot is stopped, ``MEMORY USAGE`` of every key it left,
   grouped by family (the key's name after the prefix and hash tag: ``game``, ``done``,
   ``history``, ``rec``, ``stats``, ``handled``...), divided by the games finished (the
   ``done`` keys) and, for the ``handled`` family, by the updates delivered.
3. **Drawing a board**: ``render.board_png`` CPU time over ``benchmarks.render``'s positions.
4. **The computer's levels**: CPU time per move of Facile, Medio and Difficile over a few
   cubeless single games (``benchmarks.ai``; moves with at least two legal plays).
5. **Handled updates at scale**: ``benchmarks.handled``'s figure for ``--updates`` ids.

The fake server, the players and these measurements share the machine with the bot:
compare figures taken on the same machine only.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import redis.asyncio as aioredis

from benchmarks import handled, load
from benchmarks.ai import run as ai_run
from benchmarks.render import positions
from engine import Variant
from render import board_png
from storage import EmbeddedValkey
from storage.models import StorageConfig
from tests.e2e.fake_telegram import FakeTelegram

FIRST_UPDATE_ID = 100_000  # the fake's first update id
CLAIM_COMMANDS = 6  # commands one run of the timer claim script counts in INFO commandstats


def family(key: str, prefix: str) -> str:
    """The family of a key: its first name part after the prefix and any hash tag."""
    rest = key.removeprefix(prefix + ":")
    if rest.startswith("{"):
        rest = rest.split("}:", 1)[-1]
    return rest.split(":", 1)[0]


async def key_families(url: str, prefix: str) -> dict[str, tuple[int, int]]:
    """Keys and ``MEMORY USAGE`` bytes per family, over every key under ``prefix``."""
    client = aioredis.Redis.from_url(url, decode_responses=True)
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    try:
        async for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            row = found[family(key, prefix)]
            row[0] += 1
            row[1] += await client.memory_usage(key, samples=0) or 0
    finally:
        await client.aclose()
    return {name: (keys, size) for name, (keys, size) in found.items()}


async def bot_figures(args: argparse.Namespace) -> None:
    """Parts 1 and 2: the real bot under load, then what it left in Redis."""
    prefix = StorageConfig().prefix
    with tempfile.TemporaryDirectory(prefix="tavola-capacity-") as tmp:
        data_dir = Path(tmp)
        valkey = EmbeddedValkey(data_dir / "valkey")
        await asyncio.to_thread(valkey.start)
        try:
            async with FakeTelegram(load.TOKEN, enforce_limits=True, latency=args.latency) as tg:
                bots = await load.start_bots(
                    tg, valkey.url, data_dir, args.workers, load.REPO_ROOT, sys.executable
                )
                delivery = None
                if args.workers > 1:
                    delivery = asyncio.create_task(load.deliver_by_webhook(tg, bots))
                setting = load.Setting(
                    args.games, args.mode, args.variant, args.seconds, 90.0, 20.0, False
                )
                got: dict[str, float] = {}
                try:
                    # What the workers cost Redis with nothing to do (the timer polls): a
                    # fixed rate per worker, taken out of the per-turn figures below.
                    idle_before = await load.ValkeyCounters.read(valkey)
                    await asyncio.sleep(args.idle)
                    idle = (await load.ValkeyCounters.read(valkey)).since(idle_before)
                    line = await load.run_setting(
                        tg, bots, setting, 0, random.Random(args.seed), valkey, got
                    )
                finally:
                    if delivery is not None:
                        delivery.cancel()
                        await asyncio.gather(delivery, return_exceptions=True)
                    await asyncio.gather(*(bot.stop() for bot in bots))
                updates = sum(1 for r in tg.requests if r.method == "answerCallbackQuery")
                # Every update the fake numbered, less those Telegram would not deliver.
                delivered = tg._next_update_id - FIRST_UPDATE_ID - len(tg.dropped_updates)
        finally:
            families = await key_families(valkey.url, prefix)
            await asyncio.to_thread(valkey.stop)

    print(
        f"1. the bot: {args.games} games ({args.mode}), {args.workers} worker(s), "
        f"{args.seconds:g} s"
    )
    print(load.HEADER)
    print(line)
    turns = got.get("turns", 0)
    if not turns:
        print("no turn was played: no figure per turn")
        return
    per = {k: v / turns for k, v in got.items() if k not in ("turns", "seconds")}  # per turn
    print(
        f"per turn: bot CPU {per['cpu'] * 1000:.0f} ms; Bot API requests {per['requests']:.2f} "
        f"({per['limited']:.2f} sends+edits counted by Telegram, {per['uploads']:.2f} uploads); "
        f"Redis {per['commands']:.1f} commands, {per['bytes_in'] / 1024:.1f} KB in, "
        f"{per['valkey_cpu'] * 1000:.1f} ms server CPU ({turns:.0f} turns, "
        f"{turns / got['seconds']:.1f} turns/s)"
    )
    idle_rate, idle_cpu = idle.commands / args.idle, idle.cpu / args.idle
    # The timer polls run one claim script per shard and kind; it is the only caller of
    # ZRANGEBYSCORE on the hot path, and runs six commands (EVALSHA, TYPE x2,
    # ZREMRANGEBYSCORE, ZCARD, ZRANGEBYSCORE). A busy worker polls less often than an idle
    # one, so the polls are counted in the window rather than taken from the idle rate.
    polls = got.get("cmd:zrangebyscore", 0.0)
    net = (got["commands"] - CLAIM_COMMANDS * polls) / turns
    print(
        f"Redis idle (timer polls of {args.workers} worker(s)): {idle_rate:.0f} commands/s, "
        f"{idle_cpu * 1000:.1f} ms server CPU/s; in the window the polls ran {polls / turns:.1f} "
        f"claim scripts per turn; without them, per turn: {net:.1f} commands"
    )
    top = sorted(
        ((k.removeprefix("cmd:"), v / turns) for k, v in got.items() if k.startswith("cmd:")),
        key=lambda kv: -kv[1],
    )
    print("   commands per turn: " + ", ".join(f"{k} {v:.1f}" for k, v in top[:14]))
    print()
    finished = families.get("done", (0, 0))[0]
    print(f"2. Redis after the run: {finished} finished games, {delivered} updates delivered")
    print(f"   ({updates} of them button presses)")
    print(f"{'family':<14}{'keys':>8}{'bytes':>12}{'per finished game':>20}")
    for name, (keys, size) in sorted(families.items(), key=lambda kv: -kv[1][1]):
        share = f"{size / finished:.0f}" if finished else "-"
        print(f"{name:<14}{keys:>8}{size:>12}{share:>20}")
    kept = ("done", "history", "rec", "recs", "stats", "lb", "counted", "names", "prefs")
    if finished:
        total = sum(families.get(name, (0, 0))[1] for name in kept)
        print(f"kept per finished game ({', '.join(kept)}): {total / finished:.0f} bytes")
    live = families.get("game", (0, 0))
    if live[0]:
        print(f"a game in play: {live[1] / live[0]:.0f} bytes (its document)")
    if "handled" in families and delivered:
        print(f"handled updates: {families['handled'][1] / delivered:.1f} bytes per update")
    print()


def render_figures(rounds: int) -> None:
    """Part 3: CPU time of one board picture."""
    views = positions(20, 4)
    for view in views:  # warm the palettes, backgrounds and sprites
        board_png(view)
    times = []
    for _ in range(rounds):
        for view in views:
            t0 = time.thread_time()
            board_png(view)
            times.append(time.thread_time() - t0)
    print(
        f"3. a board picture: median {statistics.median(times) * 1000:.1f} ms CPU, "
        f"worst {max(times) * 1000:.1f} ms ({len(times)} pictures)"
    )


def ai_figures(games: int) -> None:
    """Part 4: CPU time per move of each level (against Medio)."""
    print(f"4. the computer, CPU ms per move (classic, {games} games per level, median / p95):")
    for level in ("facile", "medio", "difficile"):
        tally = ai_run(Variant.CLASSIC, level, "medio", games, 7)
        times = sorted(tally.times["A"])
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(
            f"   {level:<10} {statistics.median(times) * 1000:7.1f} {p95 * 1000:7.1f} "
            f"({len(times)} moves)"
        )


async def handled_figures(updates: int) -> None:
    """Part 5: bytes per handled update at scale (``benchmarks.handled``)."""
    with tempfile.TemporaryDirectory(prefix="tavola-capacity-handled-") as tmp:
        valkey = EmbeddedValkey(Path(tmp))
        await asyncio.to_thread(valkey.start)
        try:
            print("5. handled updates: ", end="")
            await handled.measure(valkey.url, updates, 1000, 1)
        finally:
            await asyncio.to_thread(valkey.stop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.capacity", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="group games at once (20)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window (60)")
    parser.add_argument("--workers", type=int, default=1, help="webhook workers (1: polling)")
    parser.add_argument(
        "--mode", choices=["group", "medio", "difficile"], default="group", help="(group)"
    )
    parser.add_argument("--variant", choices=["classic", "long"], default="classic")
    parser.add_argument("--latency", type=float, default=0.03, help="per request, s (0.03)")
    parser.add_argument("--ai-games", type=int, default=4, help="games per level (4)")
    parser.add_argument("--updates", type=int, default=100_000, help="handled ids (100000)")
    parser.add_argument("--idle", type=float, default=10.0, help="s measured idle (10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--skip-bot", action="store_true", help="parts 3 to 5 only (no bot started)"
    )
    args = parser.parse_args(argv)
    if not args.skip_bot:
        asyncio.run(bot_figures(args))
    render_figures(3)
    ai_figures(args.ai_games)
    asyncio.run(handled_figures(args.updates))


if __name__ == "__main__":
    main()
