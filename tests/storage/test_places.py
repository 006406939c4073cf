"""Places that change: a chat's records moving to its new id (a group upgraded to a
supergroup), and a chat the bot can no longer reach (removed, blocked)."""

from __future__ import annotations

import redis.asyncio as aioredis

from storage import GameRepository, GameResult, StoredGame

OLD, NEW = -2001, -1002001
ANNA, BRUNO = 11, 22


def doc(moves: int = 0) -> dict[str, object]:
    return {"schema": 2, "variant": "classic", "moves": moves}


def result(game: StoredGame, *, ends_match: bool) -> GameResult:
    return GameResult(
        chat_id=game.chat_id,
        game_id=game.game_id,
        variant="classic",
        match_length=3,
        players=(ANNA, BRUNO),
        names=("Anna", "Bruno"),
        winner_id=ANNA,
        points=(2, 0),
        ends_match=ends_match,
    )


async def _a_chat_with_history(repo: GameRepository) -> StoredGame:
    """A finished match (records, leaderboard, stats), a challenge, a seed, a game mid-turn."""
    first = await repo.create_game(OLD, doc())
    await repo.finish_game(first, doc(1), result(first, ends_match=True))
    await repo.archive_record(OLD, first.game_id, 1, {"rec": "x"})
    await repo.create_challenge(OLD, {"from": ANNA}, ttl=600)
    await repo.pending_dice_seed(OLD, "seed")
    await repo.remember_message(OLD, "reminder", 77, ttl=600)
    game = await repo.create_game(OLD, doc(), deadline_at=5_000_000_000.0)
    game = await repo.save_game(game, doc(3))  # mid-turn: the deadline is kept
    await repo.set_board_message(OLD, game.game_id, 42)
    return game


async def test_migration_moves_every_record_of_the_chat_at_once(
    repo: GameRepository, redis_client: aioredis.Redis, key_prefix: str
) -> None:
    game = await _a_chat_with_history(repo)
    finished_id = (await repo.finished_game_ids(OLD))[0]

    moved = await repo.migrate_chat(OLD, NEW)
    assert moved.game_moved and moved.records_moved > 0

    now = await repo.load_game(NEW)
    assert now is not None
    assert (now.game_id, now.version, now.doc) == (game.game_id, game.version, doc(3))
    assert now.board_message_id is None  # that message was in the old chat
    assert await repo.get_deadline(NEW) == 5_000_000_000.0
    assert await repo.finished_game_ids(NEW) == [finished_id]
    assert await repo.load_finished_game(NEW, finished_id) is not None
    assert [r.game_id for r in await repo.last_records(NEW)] == [finished_id]
    assert [c.payload for c in await repo.list_challenges(NEW)] == [{"from": ANNA}]
    assert await repo.take_dice_seed(NEW) == "seed"
    assert [e.user_id for e in await repo.leaderboard("classic", NEW)] == [ANNA, BRUNO]
    assert (await repo.player_stats(ANNA, NEW)).by_variant["classic"].wins == 1

    # Nothing is left under the old id.
    assert await repo.load_game(OLD) is None and await repo.get_deadline(OLD) is None
    left = [k async for k in redis_client.scan_iter(match=f"{key_prefix}:*{OLD}*")]
    assert left == []


async def test_a_second_migration_is_a_no_op(repo: GameRepository) -> None:
    await _a_chat_with_history(repo)
    await repo.migrate_chat(OLD, NEW)
    before = await repo.load_game(NEW)
    again = await repo.migrate_chat(OLD, NEW)
    assert again.nothing
    assert await repo.load_game(NEW) == before


async def test_migration_never_overwrites_a_game_already_in_the_new_chat(
    repo: GameRepository,
) -> None:
    await repo.create_game(OLD, doc(1))
    there = await repo.create_game(NEW, doc(2))
    moved = await repo.migrate_chat(OLD, NEW)
    assert not moved.game_moved
    assert await repo.load_game(NEW) == there


async def test_an_unreachable_chat_stops_its_clock_and_keeps_its_game(
    repo: GameRepository,
) -> None:
    game = await repo.create_game(OLD, doc(), deadline_at=5_000_000_000.0)
    assert await repo.mark_unreachable(OLD, "kicked", [OLD])
    assert not await repo.mark_unreachable(OLD, "kicked", [OLD])  # a second report
    assert await repo.unreachable(OLD) == "kicked"
    assert await repo.get_deadline(OLD) is None
    assert await repo.load_game(OLD) == game

    assert await repo.mark_reachable(OLD) == "kicked"
    assert await repo.mark_reachable(OLD) is None  # only one worker resumes
    assert await repo.unreachable(OLD) is None
    assert await repo.restart_deadline(OLD, 6_000_000_000.0)
    assert not await repo.restart_deadline(OLD, 7_000_000_000.0)  # a running clock stays
    assert await repo.get_deadline(OLD) == 6_000_000_000.0
