"""Worker process for test_concurrency: many asyncio writers on one game, with retries.

Usage: python concurrent_writer.py URL PREFIX CHAT_ID TAG WRITERS INCREMENTS
Prints "ready", waits for the key PREFIX:go, then runs and prints a JSON report.
"""

from __future__ import annotations

import asyncio
import json
import sys

from storage import GameRepository, SchemaRegistry, StorageConfig, VersionConflictError
from storage.connect import make_client


async def writer(repo: GameRepository, chat_id: int, name: str, increments: int) -> dict:
    won: list[int] = []
    conflicts = 0
    done = 0
    while done < increments:
        game = await repo.load_game(chat_id)
        doc = {**game.doc, "log": [*game.doc["log"], f"{name}#{done}"]}
        try:
            saved = await repo.save_game(game, doc)
        except VersionConflictError:
            conflicts += 1
            continue
        won.append(saved.version)
        done += 1
    return {"won": won, "conflicts": conflicts}


async def main() -> None:
    url, prefix, chat, tag, writers, increments = sys.argv[1:7]
    client = make_client(url)
    repo = GameRepository(client, SchemaRegistry(current=2), StorageConfig(prefix=prefix))
    print("ready", flush=True)
    while not await client.exists(f"{prefix}:go"):
        await asyncio.sleep(0.005)
    reports = await asyncio.gather(
        *(writer(repo, int(chat), f"{tag}{n}", int(increments)) for n in range(int(writers)))
    )
    await client.aclose()
    print(
        json.dumps(
            {
                "won": [v for r in reports for v in r["won"]],
                "conflicts": sum(r["conflicts"] for r in reports),
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
