"""A button press's reads in one round trip: the game at the room's own table, the table that
holds the pressed game, and the presser's settings (on one server and on a cluster, where the
game, the room's index and the player's settings sit in different slots)."""

from __future__ import annotations

import pytest

from storage import CorruptGameError, GameRepository, NewerGameError
from storage.keys import table_place

GROUP = -1001234
ANNA, BRUNO, CARLA, DARIO = 11, 22, 33, 44


async def test_a_press_at_the_rooms_own_table_reads_everything_at_once(
    repo: GameRepository,
) -> None:
    await repo.tables.claim(GROUP, GROUP, [ANNA, BRUNO])
    game = await repo.create_game(GROUP, {"schema": 2, "variant": "classic"})
    await repo.tables.note_game(GROUP, GROUP, game.game_id, [ANNA, BRUNO])
    await repo.set_preference(ANNA, "auto_confirm", "0")

    reads = await repo.read_for_press(GROUP, ANNA, room=GROUP, game_id=game.game_id)

    assert reads.table == await repo.tables.table_of_game(GROUP, game.game_id)
    assert reads.stored() == await repo.load_game(GROUP)
    assert reads.preferences == {"auto_confirm": "0"}


async def test_a_press_at_a_further_table_names_it(repo: GameRepository) -> None:
    await repo.tables.claim(GROUP, GROUP, [ANNA, BRUNO])
    first = await repo.create_game(GROUP, {"schema": 2, "variant": "classic"})
    await repo.tables.note_game(GROUP, GROUP, first.game_id, [ANNA, BRUNO])
    table = table_place(GROUP, 1001)
    await repo.tables.claim(GROUP, table, [CARLA, DARIO])
    second = await repo.create_game(table, {"schema": 2, "variant": "long"})
    await repo.tables.note_game(GROUP, table, second.game_id, [CARLA, DARIO])

    reads = await repo.read_for_press(GROUP, CARLA, room=GROUP, game_id=second.game_id)

    assert reads.table == table
    assert reads.preferences == {}


async def test_a_private_chat_reads_its_game_and_settings_without_an_index(
    repo: GameRepository,
) -> None:
    assert (await repo.read_for_press(ANNA, ANNA)).stored() is None
    game = await repo.create_game(ANNA, {"schema": 2, "variant": "classic"})
    await repo.set_preference(ANNA, "auto_confirm", "1")
    reads = await repo.read_for_press(ANNA, ANNA)
    assert reads.table is None
    assert reads.stored() == game
    assert reads.preferences == {"auto_confirm": "1"}


async def test_an_unreadable_game_is_told_only_when_asked_for(repo: GameRepository) -> None:
    """The room's own record may be broken while the press is about a further table: the
    reads succeed, and only asking for that record raises, as load_game does."""
    await repo.client.set(repo.keys.game(GROUP), "not a hash")
    reads = await repo.read_for_press(GROUP, ANNA, room=GROUP, game_id=7)
    assert reads.table is None
    with pytest.raises(CorruptGameError):
        reads.stored()
    with pytest.raises(CorruptGameError):
        await repo.load_game(GROUP)


async def test_a_game_of_a_newer_schema_is_told_as_load_game_tells_it(
    repo: GameRepository,
) -> None:
    await repo.create_game(ANNA, {"schema": 2, "variant": "classic"})
    await repo.client.hset(repo.keys.game(ANNA), "doc", '{"schema": 99}')
    reads = await repo.read_for_press(ANNA, ANNA)
    with pytest.raises(NewerGameError):
        reads.stored()
