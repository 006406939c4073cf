"""Rolling upgrades, forward and back across one schema version: the current code reads
(and migrates) a document of the version before it, and leaves a document of the version
after it exactly as it is stored, whatever is tried on it."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from storage import (
    CorruptGameError,
    GameAlreadyActiveError,
    GameRepository,
    NewerGameError,
    NewerSchemaError,
    SchemaRegistry,
    StorageConfig,
)

CHAT = -100123


def _older_worker(repo: GameRepository) -> GameRepository:
    """A worker still running the version before: schema 1, no migrations."""
    return GameRepository(repo.client, SchemaRegistry(current=1), repo.config)


async def test_a_document_of_the_version_before_is_read_and_saved_migrated(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    older = _older_worker(repo)
    written = await older.create_game(CHAT, {"schema": 1, "moves": 3}, deadline_at=5000.0)
    game = await repo.load_game(CHAT)  # the current code: schema 2, with a step from 1
    assert game is not None and game.game_id == written.game_id
    assert game.doc == {"schema": 2, "moves": 3, "cube": 1}
    saved = await repo.save_game(game, {**game.doc, "moves": 4})
    assert saved.version == 2
    assert b'"schema":2' in await redis_client.hget(repo.keys.game(CHAT), "doc")


async def test_a_document_of_the_version_after_is_left_exactly_as_stored(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    await repo.create_game(CHAT, {"schema": 2, "moves": 9}, deadline_at=5000.0)
    older = _older_worker(repo)
    key = repo.keys.game(CHAT)
    before = await redis_client.hgetall(key)

    with pytest.raises(NewerGameError) as caught:
        await older.load_game(CHAT)
    assert isinstance(caught.value, CorruptGameError)  # callers that only know this one
    assert "newer" in caught.value.reason
    with pytest.raises(GameAlreadyActiveError):
        await older.create_game(CHAT, {"schema": 1})  # a new game may not replace it
    game = await repo.load_game(CHAT)
    assert game is not None
    with pytest.raises(ValueError, match="schema 2 > supported 1"):
        await older.save_game(game, game.doc)  # nor may the older code write its schema

    assert await redis_client.hgetall(key) == before
    assert await repo.get_deadline(CHAT) == 5000.0


def test_the_newer_schema_error_says_which_versions() -> None:
    with pytest.raises(NewerSchemaError) as caught:
        SchemaRegistry(current=1).load('{"schema":2}')
    assert (caught.value.version, caught.value.supported) == (2, 1)
    assert "newer than the supported 1" in str(caught.value)


async def test_a_finished_game_of_a_newer_version_is_reported_as_such(
    repo: GameRepository, redis_client: aioredis.Redis, storage_config: StorageConfig
) -> None:
    key = repo.keys.finished(CHAT, 7)
    await redis_client.hset(
        key, mapping={"v": 1, "doc": '{"schema":2}', "result": "{}", "fin": 1000}
    )
    with pytest.raises(NewerGameError):
        await _older_worker(repo).load_finished_game(CHAT, 7)
    assert await repo.load_finished_game(CHAT, 7) is not None
