"""The version the board message shows: recorded forward only, loaded with the game."""

from __future__ import annotations

import asyncio
import dataclasses

from storage import GameRepository

CHAT = -100777


def doc(moves: int = 0) -> dict[str, object]:
    return {"schema": 2, "variant": "classic", "moves": moves}


async def test_a_new_game_has_no_board_shown(repo: GameRepository) -> None:
    created = await repo.create_game(CHAT, doc())
    loaded = await repo.load_game(CHAT)
    assert created.shown_version is None and loaded.shown_version is None
    assert loaded.board_is_behind


async def test_mark_shown_records_version_and_message_in_one_step(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    assert await repo.mark_shown(CHAT, game.game_id, 1, message_id=500)
    loaded = await repo.load_game(CHAT)
    assert (loaded.shown_version, loaded.board_message_id, loaded.version) == (1, 500, 1)
    assert not loaded.board_is_behind

    saved = await repo.save_game(loaded, doc(1))
    assert (saved.version, saved.shown_version) == (2, 1)  # saved, not yet redrawn
    reloaded = await repo.load_game(CHAT)
    assert reloaded == dataclasses.replace(saved, updated_at=reloaded.updated_at)
    assert reloaded.board_is_behind  # e.g. the bot stopped between saving and redrawing

    assert await repo.mark_shown(CHAT, game.game_id, 2)  # edited in place: message kept
    reloaded = await repo.load_game(CHAT)
    assert (reloaded.shown_version, reloaded.board_message_id) == (2, 500)


async def test_shown_version_never_goes_back(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    for moves in (1, 2, 3):
        game = await repo.save_game(game, doc(moves))
    assert await repo.mark_shown(CHAT, game.game_id, 3, message_id=9)
    assert not await repo.mark_shown(CHAT, game.game_id, 2, message_id=8)  # a slow redraw
    assert await repo.mark_shown(CHAT, game.game_id, 3, message_id=10)  # re-sent board
    loaded = await repo.load_game(CHAT)
    assert (loaded.shown_version, loaded.board_message_id) == (3, 10)


async def test_concurrent_redraws_keep_the_newest(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    for moves in range(1, 5):  # up to version 5
        game = await repo.save_game(game, doc(moves))
    await asyncio.gather(*(repo.mark_shown(CHAT, game.game_id, v) for v in (4, 6, 2, 5, 1, 3)))
    assert (await repo.load_game(CHAT)).shown_version == 5


async def test_mark_shown_is_refused_for_another_game_or_a_future_version(
    repo: GameRepository,
) -> None:
    game = await repo.create_game(CHAT, doc())
    assert not await repo.mark_shown(CHAT, game.game_id + 1000, 1, message_id=1)
    assert not await repo.mark_shown(CHAT, game.game_id, 2, message_id=1)  # not saved yet
    assert not await repo.mark_shown(CHAT + 1, game.game_id, 1)  # no game in that chat
    assert await repo.discard_game(CHAT, game.game_id)
    assert not await repo.mark_shown(CHAT, game.game_id, 1)
    assert await repo.load_game(CHAT) is None  # nothing was created by the refused calls
