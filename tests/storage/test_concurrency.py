"""50 concurrent writers on one game from two OS processes: each version has exactly one
winner and no update is lost."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from storage import GameRepository

WORKER = Path(__file__).with_name("concurrent_writer.py")
ROOT = Path(__file__).resolve().parents[2]
CHAT = -4004
WRITERS_PER_PROCESS = 25
INCREMENTS = 4


async def start_worker(redis_url: str, prefix: str, tag: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        redis_url,
        prefix,
        str(CHAT),
        tag,
        str(WRITERS_PER_PROCESS),
        str(INCREMENTS),
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert await asyncio.wait_for(process.stdout.readline(), 60) == b"ready\n"
    return process


@pytest.mark.slow
async def test_fifty_writers_in_two_processes_lose_nothing(
    repo: GameRepository, redis_client: aioredis.Redis, redis_url: str, key_prefix: str
) -> None:
    game = await repo.create_game(CHAT, {"schema": 2, "log": []})
    workers = [await start_worker(redis_url, key_prefix, tag) for tag in ("a", "b")]
    await redis_client.set(f"{key_prefix}:go", 1)
    reports = []
    for process in workers:
        out, _ = await asyncio.wait_for(process.communicate(), 120)
        assert process.returncode == 0
        reports.append(json.loads(out.splitlines()[-1]))

    total = 2 * WRITERS_PER_PROCESS * INCREMENTS
    won = [v for report in reports for v in report["won"]]
    # every version from 2 to total+1 was won exactly once, across both processes
    assert sorted(won) == list(range(game.version + 1, game.version + 1 + total))
    assert all(report["won"] for report in reports)  # both processes did write
    assert sum(report["conflicts"] for report in reports) > 0  # and really competed

    final = await repo.load_game(CHAT)
    assert final.version == game.version + total
    expected = {
        f"{tag}{n}#{i}"
        for tag in "ab"
        for n in range(WRITERS_PER_PROCESS)
        for i in range(INCREMENTS)
    }
    assert len(final.doc["log"]) == total
    assert set(final.doc["log"]) == expected
    for tag in "ab":  # each writer's own updates stayed in order
        for n in range(WRITERS_PER_PROCESS):
            mine = [e for e in final.doc["log"] if e.startswith(f"{tag}{n}#")]
            assert mine == [f"{tag}{n}#{i}" for i in range(INCREMENTS)]
