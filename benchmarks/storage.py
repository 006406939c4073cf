"""Storage benchmark: round trips, bytes and moves per second through load-check-save.

Run from the repository root: ``python -m benchmarks.storage [--moves N] [--chats N]``.
It starts its own embedded Valkey (AOF on, as in production) in a temporary directory and, on
Linux, pins itself and the server to one CPU core. The stored game is a synthetic document
shaped like a state with a move history (an upper bound); a second table stores every state of
whole games played by the engine, as the bot does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from storage import (
    EmbeddedValkey,
    GameRepository,
    GameResult,
    SchemaRegistry,
    StorageConfig,
    StoredGame,
    VersionConflictError,
)

SCHEMA = 1
GAME_PLIES = 60  # a typical backgammon game lasts 50-60 plies


class CountingRedis(aioredis.Redis):
    """A client that counts commands sent outside pipelines (each one is a round trip)."""

    round_trips = 0

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        CountingRedis.round_trips += 1
        return await super().execute_command(*args, **options)


def initial_doc(rng: random.Random) -> dict[str, Any]:
    board = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    return {
        "schema": SCHEMA,
        "variant": "classic",
        "players": [rng.randrange(10**9, 10**10), rng.randrange(10**9, 10**10)],
        "settings": {"cube": True, "length": 5, "jacoby": False},
        "match": {"score": [0, 0], "crawford": False, "game_no": 1},
        "board": board,
        "bar": [0, 0],
        "off": [0, 0],
        "turn": 0,
        "turn_no": 0,
        "dice": [3, 1],
        "cube": {"value": 1, "owner": None, "offered": False},
        "steps": [],
        "history": [],
    }


def next_doc(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One played move: dice, a board change and a notation entry in the history.

    After ``GAME_PLIES`` plies the next game of the match starts with an empty history, so
    long runs measure games of a realistic length.
    """
    if doc["turn_no"] >= GAME_PLIES:
        match = {**doc["match"], "game_no": doc["match"]["game_no"] + 1}
        doc = {**doc, "turn_no": 0, "history": [], "match": match}
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    board = list(doc["board"])
    src = rng.randrange(1, 25)
    board[src], board[(src + dice[0]) % 24 + 1] = board[(src + dice[0]) % 24 + 1], board[src]
    move = f"{dice[0]}{dice[1]}: {src}/{max(src - dice[0], 1)} {src}/{max(src - dice[1], 1)}"
    return {
        **doc,
        "board": board,
        "turn": 1 - doc["turn"],
        "turn_no": doc["turn_no"] + 1,
        "dice": dice,
        "history": [*doc["history"], move],
    }


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core} (bot and Valkey)"


def aof_bytes(data_dir: Path) -> int:
    return sum(p.stat().st_size for p in (data_dir / "appendonlydir").glob("*"))


async def net_bytes(client: aioredis.Redis) -> tuple[int, int]:
    stats = await client.info("stats")
    return int(stats["total_net_input_bytes"]), int(stats["total_net_output_bytes"])


async def play_moves(repo: GameRepository, chat_id: int, moves: int, rng: random.Random) -> int:
    """Load, check, save ``moves`` times; returns the number of version conflicts."""
    conflicts = 0
    done = 0
    while done < moves:
        game = await repo.load_game(chat_id)
        assert game is not None
        try:
            await repo.save_game(game, next_doc(game.doc, rng))
        except VersionConflictError:
            conflicts += 1
            continue
        done += 1
    return conflicts


async def engine_sizes(client: aioredis.Redis) -> list[tuple[str, str]]:
    """Largest stored document and Redis record over whole games played by the engine."""
    from engine import GameState, MatchConfig, Phase, Variant
    from engine.serialize import SCHEMA_VERSION, to_dict

    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION), StorageConfig())
    rows = []
    for n, variant in enumerate((Variant.CLASSIC, Variant.LONG)):
        rng = random.Random(11 + n)
        chat = 20_000 + n
        state = GameState.new_match(MatchConfig(variant, 5))
        game = await repo.create_game(chat, to_dict(state))
        largest = memory = saves = 0
        while not state.is_over:
            if state.phase is Phase.OPENING:
                state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
            elif state.phase is Phase.ROLL:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
            else:
                plays = state.legal_plays()
                state = state.play(rng.choice(plays)) if plays else state.confirm()
            game = await repo.save_game(game, to_dict(state))
            saves += 1
            largest = max(largest, len(await client.hget(repo.keys.game(chat), "doc") or b""))
            memory = max(memory, await client.memory_usage(repo.keys.game(chat)) or 0)
        rows.append(
            (f"{variant.value}, {saves} saves", f"JSON max {largest:>5} B, in Redis max {memory} B")
        )
    return rows


def table(title: str, rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    print(f"\n{title}\n" + "-" * len(title))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


async def run(moves: int, chats: int) -> None:
    rng = random.Random(7)
    placement = pin_to_one_core()
    with tempfile.TemporaryDirectory(prefix="tavola-bench-") as tmp:
        data_dir = Path(tmp) / "valkey"
        server = EmbeddedValkey(data_dir)
        server.start()
        client = CountingRedis.from_url(server.url)
        try:
            repo = GameRepository(client, SchemaRegistry(current=SCHEMA), StorageConfig())

            # --- per move: round trips, network bytes, AOF bytes
            await repo.create_game(1, initial_doc(rng))
            await play_moves(repo, 1, 5, rng)  # warm up (script cache)
            net_before, aof_before = await net_bytes(client), aof_bytes(data_dir)
            CountingRedis.round_trips = 0
            await play_moves(repo, 1, moves, rng)
            trips = CountingRedis.round_trips
            net_after = await net_bytes(client)
            await asyncio.sleep(1.2)  # appendfsync everysec: let the AOF reach the disk
            aof_after = aof_bytes(data_dir)
            per_move = [
                ("round trips per move", f"{trips / moves:.2f} (1 HMGET read + 1 EVALSHA write)"),
                ("bytes to server per move", f"{(net_after[0] - net_before[0]) / moves:.0f}"),
                ("bytes from server per move", f"{(net_after[1] - net_before[1]) / moves:.0f}"),
                ("AOF bytes per move", f"{(aof_after - aof_before) / moves:.0f}"),
            ]
            table(f"Per move ({moves} moves, one game)", per_move)

            # --- size of a stored game as it grows
            sizes = []
            game = await repo.create_game(2, initial_doc(rng))
            for plies in (0, 30, 60):
                while game.doc["turn_no"] < plies:
                    game = await repo.save_game(game, next_doc(game.doc, rng))
                doc_len = len((await client.hget(repo.keys.game(2), "doc")) or b"")
                memory = await client.memory_usage(repo.keys.game(2))
                sizes.append(
                    (f"after {plies:>3} plies", f"JSON {doc_len:>5} B, in Redis {memory:>5} B")
                )
            table("Stored game size (target: under 2 KB)", sizes)
            table("Real engine games (every state of a random game)", await engine_sizes(client))

            # --- throughput through load-check-save, one process
            await play_moves(repo, 1, 200, rng)
            start = time.perf_counter()
            await play_moves(repo, 1, moves, rng)
            sequential = moves / (time.perf_counter() - start)

            for chat in range(100, 100 + chats):
                await repo.create_game(chat, initial_doc(rng))
            per_chat = max(1, moves // chats)
            start = time.perf_counter()
            await asyncio.gather(
                *(play_moves(repo, chat, per_chat, rng) for chat in range(100, 100 + chats))
            )
            parallel = per_chat * chats / (time.perf_counter() - start)

            await repo.create_game(3, initial_doc(rng))
            start = time.perf_counter()
            conflicts = await asyncio.gather(*(play_moves(repo, 3, 20, rng) for _ in range(10)))
            contended = 200 / (time.perf_counter() - start)

            finishes = max(50, moves // 10)
            start = time.perf_counter()
            for i in range(finishes):
                game = await repo.create_game(10_000 + i, initial_doc(rng))
                await repo.finish_game(game, game.doc, _result(game, rng))
            finish_rate = finishes / (time.perf_counter() - start)

            table(
                f"Throughput, {placement}",
                [
                    ("moves/s, one chat, sequential", f"{sequential:,.0f}"),
                    (f"moves/s, {chats} chats concurrently", f"{parallel:,.0f}"),
                    (
                        "moves/s, 10 writers on one game",
                        f"{contended:,.0f} ({sum(conflicts)} conflicts retried)",
                    ),
                    ("create + finish_game (stats, rating) /s", f"{finish_rate:,.0f}"),
                ],
            )
        finally:
            await client.aclose()
            server.stop()


def _result(game: StoredGame, rng: random.Random) -> GameResult:
    players = (rng.randrange(1, 50), rng.randrange(50, 100))
    return GameResult(
        chat_id=game.chat_id,
        game_id=game.game_id,
        variant="classic",
        match_length=5,
        players=players,
        names=("Anna", "Bruno"),
        winner_id=players[rng.randrange(2)],
        points=(1, 0),
        ends_match=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5000, help="moves per measurement")
    parser.add_argument("--chats", type=int, default=50, help="chats played concurrently")
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.chats))


if __name__ == "__main__":
    main()
