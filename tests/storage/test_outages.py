"""Redis outages: the same client survives a restart of the server, reports an outage
promptly as StorageUnavailableError, and works again once the server is back.

Each test runs its own Valkey in a temporary directory (the session server is shared) and
restarts it on the same port, as a restarted Redis comes back where its clients expect it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import (
    EmbeddedValkey,
    GameRepository,
    RedisHandle,
    SchemaRegistry,
    StorageConfig,
    StorageUnavailableError,
    open_redis,
)
from storage.connect import MAX_CONNECTIONS
from storage.embedded import PID_FILE_NAME

CHAT = -700
# Well under the ~10 s a player would wait; a refused connection gives up far sooner.
OUTAGE_REPORT_SECONDS = 5.0


def doc(moves: int) -> dict[str, object]:
    return {"schema": 1, "moves": moves}


class Server:
    """One Valkey data directory, stopped and started again on the port it first got."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.current = EmbeddedValkey(data_dir)
        self.current.start()
        self.port = self.current.port
        self.url = self.current.url

    def stop(self) -> None:
        self.current.stop()

    def start(self) -> None:
        self.current = EmbeddedValkey(self.data_dir, port=self.port)
        self.current.start()

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    server = Server(tmp_path / "valkey")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def handle(server: Server) -> AsyncIterator[RedisHandle]:
    handle = await open_redis(server.url, Path("unused"))
    try:
        yield handle
    finally:
        await handle.aclose()


def make_repo(handle: RedisHandle, **kwargs: float) -> GameRepository:
    return GameRepository(handle.client, SchemaRegistry(current=1), StorageConfig(), **kwargs)


async def test_the_first_call_after_a_restart_works(server: Server, handle: RedisHandle) -> None:
    repo = make_repo(handle)
    game = await repo.create_game(CHAT, doc(0))
    await repo.load_game(CHAT)  # the pool now holds a connection the restart will kill

    server.restart()

    loaded = await repo.load_game(CHAT)
    assert (loaded.game_id, loaded.version, loaded.doc) == (game.game_id, 1, doc(0))
    server.restart()
    # A script call first: the restarted server forgot the scripts (NOSCRIPT) and the
    # pooled connection is dead; both are repaired without the caller noticing.
    saved = await repo.save_game(loaded, doc(1))
    assert saved.version == 2
    assert await repo.mark_shown(CHAT, game.game_id, 2, message_id=77)
    assert await repo.claim_update(1, 1)


async def test_an_outage_is_reported_and_the_client_recovers(
    server: Server, handle: RedisHandle
) -> None:
    repo = make_repo(handle)
    game = await repo.create_game(CHAT, doc(0))

    server.stop()
    for call in (
        lambda: repo.load_game(CHAT),
        lambda: repo.save_game(game, doc(1)),
        lambda: repo.claim_update(1, 2),
    ):
        started = time.monotonic()
        with pytest.raises(StorageUnavailableError):
            await call()
        assert time.monotonic() - started < OUTAGE_REPORT_SECONDS

    server.start()
    game = await repo.save_game(game, doc(1))  # same client, no restart of the bot
    assert (await repo.load_game(CHAT)).doc == doc(1)


@pytest.mark.serial  # a time limit: run alone, after the parallel pass
async def test_a_hung_server_is_reported_within_the_call_timeout(
    server: Server, handle: RedisHandle
) -> None:
    repo = make_repo(handle, call_timeout=1.0)
    await repo.create_game(CHAT, doc(0))
    pid = int((server.data_dir / PID_FILE_NAME).read_text())

    os.kill(pid, signal.SIGSTOP)  # accepts connections, never answers
    try:
        started = time.monotonic()
        with pytest.raises(StorageUnavailableError, match="did not answer within 1 s"):
            await repo.load_game(CHAT)
        assert time.monotonic() - started < 2.0
    finally:
        os.kill(pid, signal.SIGCONT)
    assert (await repo.load_game(CHAT)).version == 1


async def test_more_concurrent_calls_than_connections_wait_their_turn(
    handle: RedisHandle,
) -> None:
    """Hundreds of chats at once: calls queue for a pooled connection instead of failing
    with "Too many connections"."""
    repo = make_repo(handle)
    calls = 5 * MAX_CONNECTIONS
    results = await asyncio.gather(*(repo.load_game(CHAT - n) for n in range(calls)))
    assert results == [None] * calls
