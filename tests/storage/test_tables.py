"""The index of a room's tables: who sits where, which tables are in use, which table a game
belongs to; a table and its seats are freed when its game is gone (on one server and on a
cluster, where every script keeps to the room's slot)."""

from __future__ import annotations

from storage import GameRepository
from storage.keys import is_table_key, shard_of, table_place
from storage.tables import Seated, TableEntry

GROUP = -1001234
ANNA, BRUNO, CARLA, DARIO = 11, 22, 33, 1 << 52


def further(n: int) -> int:
    return table_place(GROUP, 1000 + n)


def test_a_further_table_lives_in_its_room_shard() -> None:
    for n in range(50):
        key = table_place(GROUP - n, n * 7919)
        assert is_table_key(key)
        assert shard_of(key) == shard_of(GROUP - n)
    assert not is_table_key(GROUP) and not is_table_key(1 << 59)


async def test_two_pairs_sit_at_two_tables(repo: GameRepository) -> None:
    index = repo.tables
    assert await index.claim(GROUP, GROUP, [ANNA, BRUNO]) is True
    first = await repo.create_game(GROUP, {"schema": 2, "variant": "classic"})
    assert await index.note_game(GROUP, GROUP, first.game_id, [ANNA, BRUNO])
    # The first table is in use: another pair gets a further one.
    assert await index.claim(GROUP, GROUP, [CARLA, DARIO]) is False
    table = further(1)
    assert await index.claim(GROUP, table, [CARLA, DARIO]) is True
    second = await repo.create_game(table, {"schema": 2, "variant": "long"})
    await index.note_game(GROUP, table, second.game_id, [CARLA, DARIO])

    assert await index.seat_of(GROUP, ANNA) == GROUP
    assert await index.seat_of(GROUP, DARIO) == table
    assert await index.seat_of(GROUP, 99) is None
    assert await index.in_use(GROUP) == [
        TableEntry(GROUP, (ANNA, BRUNO), first.game_id),
        TableEntry(table, (CARLA, DARIO), second.game_id),
    ]
    assert await index.table_of_game(GROUP, second.game_id) == table
    assert await index.in_use(GROUP - 1) == []


async def test_a_seated_player_cannot_sit_at_a_second_table(repo: GameRepository) -> None:
    index = repo.tables
    await index.claim(GROUP, GROUP, [ANNA, BRUNO])
    game = await repo.create_game(GROUP, {"schema": 2, "variant": "classic"})
    await index.note_game(GROUP, GROUP, game.game_id, [ANNA, BRUNO])
    assert await index.claim(GROUP, further(1), [CARLA, BRUNO]) == Seated(BRUNO, GROUP)
    # Nothing of the refused claim stays.
    assert await index.seat_of(GROUP, CARLA) is None
    assert [e.key for e in await index.in_use(GROUP)] == [GROUP]


async def test_a_table_is_free_once_its_game_is_gone(repo: GameRepository) -> None:
    index = repo.tables
    table = further(2)
    await index.claim(GROUP, table, [ANNA, BRUNO])
    game = await repo.create_game(table, {"schema": 2, "variant": "classic"})
    await index.note_game(GROUP, table, game.game_id, [ANNA, BRUNO])
    assert await repo.discard_game(table)  # the match ended (archived) or expired

    assert await index.seat_of(GROUP, ANNA) is None
    assert await index.in_use(GROUP) == []
    assert await index.last_of(GROUP, ANNA) == table  # its records stay findable
    assert await index.claim(GROUP, table, [CARLA, BRUNO]) is True


async def test_a_failed_claim_is_freed(repo: GameRepository) -> None:
    index = repo.tables
    table = further(3)
    assert await index.claim(GROUP, table, [ANNA, BRUNO]) is True
    assert await index.seat_of(GROUP, ANNA) == table  # claimed: the game is being set up
    assert not await index.free(GROUP, table, [ANNA, BRUNO])  # still being set up
    assert await index.free(GROUP, table, [ANNA, BRUNO], claim=False)
    assert await index.seat_of(GROUP, ANNA) is None
    assert await index.in_use(GROUP) == []


async def test_a_game_of_a_further_table_takes_its_room_challenge(repo: GameRepository) -> None:
    created = await repo.create_challenge(GROUP, {"by": ANNA}, 600)
    table = further(4)
    await repo.create_game(
        table,
        {"schema": 2, "variant": "classic"},
        challenge_id=created.challenge_id,
        challenge_room=GROUP,
    )
    assert await repo.get_challenge(GROUP, created.challenge_id) is None
    assert await repo.list_challenges(GROUP) == []


async def test_a_game_stored_before_the_index_keeps_its_table(repo: GameRepository) -> None:
    await repo.create_game(GROUP, {"schema": 2, "variant": "classic"})  # no claim: an old game
    assert await repo.tables.claim(GROUP, GROUP, [ANNA, BRUNO]) is False
    assert await repo.tables.claim(GROUP, further(5), [ANNA, BRUNO]) is True


async def test_the_index_expires_with_a_room_nobody_plays_in(repo: GameRepository) -> None:
    await repo.tables.claim(GROUP, GROUP, [ANNA, BRUNO])
    for key in (repo.keys.seats(GROUP), repo.keys.tables(GROUP)):
        assert 0 < await repo.client.pttl(key) <= round(repo.config.finished_game_ttl * 1000)
