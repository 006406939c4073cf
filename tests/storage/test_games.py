"""Active games: round trip, optimistic concurrency, deadlines, corruption, expiry."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
import redis.asyncio as aioredis

from storage import (
    CorruptGameError,
    GameAlreadyActiveError,
    GameNotFoundError,
    GameRepository,
    StorageError,
    VersionConflictError,
)
from storage.schema import SchemaRegistry

CHAT = -100123


def doc(moves: int = 0, **extra: object) -> dict[str, object]:
    """A stand-in for the engine's serialised state (schema 2 is current in these tests)."""
    return {"schema": 2, "variant": "classic", "moves": moves, **extra}


async def test_round_trip_keeps_the_document_and_counts_versions(repo: GameRepository) -> None:
    assert await repo.load_game(CHAT) is None
    created = await repo.create_game(CHAT, doc(0, name="Nicolò", board=[2, 0, -5]))
    loaded = await repo.load_game(CHAT)
    assert loaded == dataclasses.replace(created, updated_at=loaded.updated_at)
    assert loaded.version == 1
    assert loaded.doc == {
        "schema": 2,
        "variant": "classic",
        "moves": 0,
        "name": "Nicolò",
        "board": [2, 0, -5],
    }

    saved = await repo.save_game(loaded, doc(1))
    assert saved.version == 2
    reloaded = await repo.load_game(CHAT)
    assert (reloaded.version, reloaded.doc, reloaded.game_id) == (2, doc(1), created.game_id)


async def test_update_built_on_an_old_version_is_refused(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc(0))
    await repo.save_game(game, doc(1))
    with pytest.raises(VersionConflictError) as caught:
        await repo.save_game(game, doc(99))
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert (await repo.load_game(CHAT)).doc == doc(1)


async def test_same_click_twice_applies_once(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc(0))
    outcomes = await asyncio.gather(
        repo.save_game(game, doc(1)), repo.save_game(game, doc(1)), return_exceptions=True
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["StoredGame", "VersionConflictError"]
    assert (await repo.load_game(CHAT)).version == 2


async def test_one_active_game_per_chat(repo: GameRepository) -> None:
    first = await repo.create_game(CHAT, doc())
    with pytest.raises(GameAlreadyActiveError) as caught:
        await repo.create_game(CHAT, doc())
    assert caught.value.game_id == first.game_id
    other = await repo.create_game(CHAT + 1, doc())
    assert other.game_id != first.game_id


async def test_saving_a_discarded_or_replaced_game_is_refused(repo: GameRepository) -> None:
    old = await repo.create_game(CHAT, doc())
    assert await repo.discard_game(CHAT, old.game_id)
    with pytest.raises(GameNotFoundError):
        await repo.save_game(old, doc(1))
    new = await repo.create_game(CHAT, doc())
    with pytest.raises(GameNotFoundError):
        await repo.save_game(old, doc(1))
    assert not await repo.discard_game(CHAT, old.game_id)  # never drops the newer game
    assert (await repo.load_game(CHAT)).game_id == new.game_id


async def test_board_message_is_kept_without_a_version_bump(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    assert await repo.set_board_message(CHAT, game.game_id, 4242)
    assert not await repo.set_board_message(CHAT, game.game_id + 1000, 1)
    loaded = await repo.load_game(CHAT)
    assert (loaded.board_message_id, loaded.version) == (4242, 1)
    saved = await repo.save_game(loaded, doc(1))
    assert (await repo.load_game(CHAT)).board_message_id == saved.board_message_id == 4242


async def test_deadlines_move_with_the_game_and_are_listed_at_start_up(
    repo: GameRepository,
) -> None:
    game = await repo.create_game(CHAT, doc(), deadline_at=1_000_000.5)
    other = await repo.create_game(CHAT + 1, doc(), deadline_at=900_000.0)
    assert await repo.get_deadline(CHAT) == 1_000_000.5
    game = await repo.save_game(game, doc(1), deadline_at=2_000_000.0)
    game = await repo.save_game(game, doc(2))  # keeps it
    assert [(d.chat_id, d.due_at) for d in await repo.pending_deadlines()] == [
        (CHAT + 1, 900_000.0),
        (CHAT, 2_000_000.0),
    ]
    assert [d.chat_id for d in await repo.pending_deadlines(until=1_000_000)] == [CHAT + 1]
    await repo.save_game(game, doc(3), clear_deadline=True)
    await repo.discard_game(CHAT + 1, other.game_id)
    assert await repo.pending_deadlines() == []
    await repo.set_deadline(CHAT, 5.0)
    await repo.clear_deadline(CHAT)
    assert await repo.get_deadline(CHAT) is None


async def test_documents_of_an_older_schema_are_migrated_on_load(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    await redis_client.hset(
        repo.keys.game(CHAT), mapping={"v": 7, "id": 3, "doc": '{"schema":1,"moves":5}'}
    )
    game = await repo.load_game(CHAT)
    assert (game.version, game.doc) == (7, {"schema": 2, "moves": 5, "cube": 1})
    await repo.save_game(game, game.doc)
    assert b'"cube":1' in await redis_client.hget(repo.keys.game(CHAT), "doc")


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"v": 1, "id": 1, "doc": '{"schema":3,"moves":0}'}, "newer than the supported 2"),
        ({"v": 1, "id": 1, "doc": '{"moves":0}'}, "missing or non-integer 'schema'"),
        ({"v": 1, "id": 1, "doc": '{"schema":2,"moves"'}, "not valid JSON"),
        ({"v": 1, "id": 1, "doc": b"\xc3\x28garbage"}, "not valid JSON"),
        ({"v": "x", "id": 1, "doc": '{"schema":2}'}, "malformed record"),
        ({"v": 1, "doc": '{"schema":2}'}, "malformed record"),
    ],
)
async def test_corrupted_game_is_a_clear_error_for_its_chat_only(
    repo: GameRepository, redis_client: aioredis.Redis, record: dict, reason: str
) -> None:
    healthy = await repo.create_game(CHAT + 1, doc())
    await redis_client.hset(repo.keys.game(CHAT), mapping=record)
    with pytest.raises(CorruptGameError, match=reason) as caught:
        await repo.load_game(CHAT)
    assert caught.value.chat_id == CHAT
    assert "chat -100123" in str(caught.value)
    assert (await repo.load_game(CHAT + 1)).game_id == healthy.game_id
    # the chat can recover: drop the unreadable game and start again
    assert await repo.discard_game(CHAT)
    assert (await repo.create_game(CHAT, doc())).version == 1


async def test_a_foreign_value_under_the_game_key_is_reported_not_crashed_on(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    await redis_client.set(repo.keys.game(CHAT), "not a hash")
    with pytest.raises(CorruptGameError, match="unexpected record"):
        await repo.load_game(CHAT)
    with pytest.raises(CorruptGameError):
        await repo.create_game(CHAT, doc())
    fake = (await repo.create_game(CHAT + 1, doc())).__class__(CHAT, 1, 1, doc())
    with pytest.raises(CorruptGameError):
        await repo.save_game(fake, doc(1))
    assert isinstance(CorruptGameError(CHAT, "x"), StorageError)


async def test_documents_this_code_could_not_read_back_are_not_written(
    repo: GameRepository,
) -> None:
    with pytest.raises(ValueError, match="schema 3 > supported"):
        await repo.create_game(CHAT, {"schema": 3})
    with pytest.raises(ValueError, match="not storable"):
        await repo.create_game(CHAT, {"moves": 1})
    assert await repo.load_game(CHAT) is None


async def test_idle_games_expire_and_every_save_renews_the_ttl(
    redis_client: aioredis.Redis, schema: SchemaRegistry, storage_config
) -> None:
    repo = GameRepository(
        redis_client, schema, dataclasses.replace(storage_config, idle_game_ttl=0.8)
    )
    game = await repo.create_game(CHAT, doc())
    assert 0 < await redis_client.pttl(repo.keys.game(CHAT)) <= 800
    await asyncio.sleep(0.5)
    await repo.save_game(game, doc(1))
    await asyncio.sleep(0.5)
    assert (await repo.load_game(CHAT)).version == 2  # renewed by the save
    await asyncio.sleep(1.0)
    assert await repo.load_game(CHAT) is None
    assert (await repo.create_game(CHAT, doc())).version == 1


async def test_default_ttls_are_applied(repo: GameRepository, redis_client) -> None:
    await repo.create_game(CHAT, doc())
    ttl_ms = await redis_client.pttl(repo.keys.game(CHAT))
    assert ttl_ms > (repo.config.idle_game_ttl - 60) * 1000
