"""Finishing games: results and statistics in one atomic step, ratings, history, leaderboards."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
import redis.asyncio as aioredis

from storage import (
    GameNotFoundError,
    GameRepository,
    GameResult,
    StorageError,
    StoredGame,
    VersionConflictError,
)
from storage.rating import rating_change
from storage.schema import SchemaRegistry

CHAT = -2001
ANNA, BRUNO, CARLA = 11, 22, 33


def doc(moves: int = 0) -> dict[str, object]:
    return {"schema": 2, "variant": "classic", "moves": moves}


def result(
    game: StoredGame,
    winner: int | None = ANNA,
    *,
    players: tuple[int, int] = (ANNA, BRUNO),
    points: tuple[int, int] = (2, 0),
    ends_match: bool = True,
    match_length: int = 3,
    variant: str = "classic",
) -> GameResult:
    return GameResult(
        chat_id=game.chat_id,
        game_id=game.game_id,
        variant=variant,
        match_length=match_length,
        players=players,
        names=tuple(f"player {p}" for p in players),
        winner_id=winner,
        points=points,
        ends_match=ends_match,
    )


async def test_finishing_a_match_records_result_stats_rating_and_frees_the_chat(
    repo: GameRepository,
) -> None:
    game = await repo.create_game(CHAT, doc(), deadline_at=10_000.0)
    outcome = await repo.finish_game(game, doc(40), result(game))

    assert outcome.archived and outcome.version == 2
    assert await repo.load_game(CHAT) is None
    assert await repo.get_deadline(CHAT) is None
    finished = await repo.load_finished_game(CHAT, game.game_id)
    assert finished.doc == doc(40)
    assert finished.result["winner_id"] == ANNA and finished.result["points"] == [2, 0]
    assert await repo.finished_game_ids(CHAT) == [game.game_id]

    gain = rating_change(1500, 1500, 3, 1.0, experience=0)
    anna_change, bruno_change = outcome.rating_changes
    assert (anna_change.user_id, anna_change.before) == (ANNA, 1500)
    assert anna_change.after == pytest.approx(1500 + gain, abs=1e-3)
    assert bruno_change.after == pytest.approx(1500 - gain, abs=1e-3)

    for chat in (CHAT, None):
        anna = await repo.player_stats(ANNA, chat)
        classic = anna.by_variant["classic"]
        assert (classic.games, classic.wins, classic.losses, classic.points) == (1, 1, 0, 2)
        assert (classic.matches, classic.match_wins, classic.experience) == (1, 1, 3)
        assert classic.rating == pytest.approx(1500 + gain, abs=1e-3)
        bruno = (await repo.player_stats(BRUNO, chat)).by_variant["classic"]
        assert (bruno.losses, bruno.points_against, bruno.match_losses) == (1, 2, 1)
    assert anna.name == "player 11"
    assert await repo.player_rank(ANNA, "classic", CHAT) == 1
    assert await repo.player_rank(BRUNO, "classic") == 2
    assert await repo.player_rank(ANNA, "long") is None


async def test_a_game_inside_a_match_counts_but_the_match_goes_on(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    outcome = await repo.finish_game(
        game, doc(1), result(game, BRUNO, points=(0, 1), ends_match=False)
    )
    assert (outcome.archived, outcome.version, outcome.rating_changes) == (False, 2, ())
    still = await repo.load_game(CHAT)
    assert (still.version, still.doc) == (2, doc(1))
    bruno = (await repo.player_stats(BRUNO)).by_variant["classic"]
    assert (bruno.games, bruno.wins, bruno.points, bruno.matches, bruno.rating) == (
        1,
        1,
        1,
        0,
        1500.0,
    )
    assert await repo.leaderboard("classic") == []  # no rated match yet

    await repo.finish_game(still, doc(2), result(still, ANNA, points=(3, 0)))
    anna = await repo.player_stats(ANNA)
    assert (anna.total("games"), anna.total("wins"), anna.total("losses")) == (2, 1, 1)
    assert anna.by_variant["classic"].points == 3


async def test_stale_or_repeated_finish_records_nothing(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    moved = await repo.save_game(game, doc(1))
    with pytest.raises(VersionConflictError):
        await repo.finish_game(game, doc(2), result(game))
    assert (await repo.player_stats(ANNA)).by_variant == {}

    await repo.finish_game(moved, doc(2), result(moved))
    with pytest.raises(GameNotFoundError):
        await repo.finish_game(moved, doc(2), result(moved))
    assert (await repo.player_stats(ANNA)).total("games") == 1


async def test_concurrent_finishers_record_the_result_exactly_once(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    outcomes = await asyncio.gather(
        *(repo.finish_game(game, doc(9), result(game)) for _ in range(10)),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(
        isinstance(o, (VersionConflictError, GameNotFoundError)) or not isinstance(o, Exception)
        for o in outcomes
    )
    for user in (ANNA, BRUNO):
        stats = (await repo.player_stats(user)).by_variant["classic"]
        assert (stats.games, stats.matches) == (1, 1)


async def test_corrupted_stats_abort_before_anything_is_written(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    game = await repo.create_game(CHAT, doc())
    await redis_client.hset(repo.keys.stats(BRUNO), "classic:games", "many")
    with pytest.raises(StorageError, match="nothing was written"):
        await repo.finish_game(game, doc(5), result(game))
    assert (await repo.load_game(CHAT)).version == 1  # game untouched
    assert (await repo.player_stats(ANNA)).by_variant == {}  # no half-recorded stats
    assert await repo.finished_game_ids(CHAT) == []
    with pytest.raises(StorageError, match="statistics of player 22"):
        await repo.player_stats(BRUNO)


async def test_a_foreign_value_under_a_stats_key_is_a_storage_error(
    repo: GameRepository, redis_client: aioredis.Redis
) -> None:
    game = await repo.create_game(CHAT, doc())
    await redis_client.set(repo.keys.stats(ANNA, CHAT), "oops")
    with pytest.raises(StorageError, match=f"unexpected value under {repo.keys.stats(ANNA, CHAT)}"):
        await repo.finish_game(game, doc(5), result(game))
    with pytest.raises(StorageError):
        await repo.player_stats(ANNA, CHAT)
    assert (await repo.load_game(CHAT)).version == 1


async def test_ratings_follow_the_fibs_formula_across_matches_and_scopes(
    repo: GameRepository,
) -> None:
    expected = {ANNA: 1500.0, BRUNO: 1500.0, CARLA: 1500.0}
    experience = dict.fromkeys(expected, 0)
    schedule = [
        ((ANNA, BRUNO), ANNA, 5),
        ((BRUNO, CARLA), CARLA, 1),
        ((CARLA, ANNA), ANNA, 7),
        ((ANNA, BRUNO), None, 3),
    ]
    for i, (players, winner, length) in enumerate(schedule):
        chat = CHAT if i < 3 else CHAT - 1  # the last match, a draw, in another chat
        game = await repo.create_game(chat, doc())
        points = (1, 1) if winner is None else ((1, 0) if winner == players[0] else (0, 1))
        await repo.finish_game(
            game, doc(), result(game, winner, players=players, points=points, match_length=length)
        )
        a, b = players
        scores = {a: 0.5, b: 0.5} if winner is None else {winner: 1.0, b if winner == a else a: 0.0}
        da = rating_change(expected[a], expected[b], length, scores[a], experience[a])
        db = rating_change(expected[b], expected[a], length, scores[b], experience[b])
        expected[a] += da
        expected[b] += db
        experience[a] += length
        experience[b] += length

    board = await repo.leaderboard("classic")
    assert [entry.user_id for entry in board] == sorted(expected, key=expected.get, reverse=True)
    for entry in board:
        assert entry.rating == pytest.approx(expected[entry.user_id], abs=0.01)
        assert entry.name == f"player {entry.user_id}"
    assert [e.rank for e in board] == [1, 2, 3]
    chat_board = await repo.leaderboard("classic", CHAT - 1)
    # in that chat both were new and equal: the draw left them at the start rating
    assert [(e.user_id in (ANNA, BRUNO), e.rating) for e in chat_board] == [(True, 1500.0)] * 2
    assert [e.user_id for e in await repo.leaderboard("classic", limit=1, offset=1)] == [
        board[1].user_id
    ]
    anna = (await repo.player_stats(ANNA)).by_variant["classic"]
    assert (anna.match_wins, anna.match_draws, anna.experience) == (2, 1, 15)


async def test_variants_keep_separate_records(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, doc())
    await repo.finish_game(game, doc(), result(game, BRUNO, variant="long", points=(0, 2)))
    bruno = await repo.player_stats(BRUNO)
    assert set(bruno.by_variant) == {"long"}
    assert bruno.by_variant["long"].wins == 1
    assert [e.user_id for e in await repo.leaderboard("long")] == [BRUNO, ANNA]
    assert await repo.leaderboard("classic") == []


async def test_finished_games_expire_after_the_configured_time(
    redis_client: aioredis.Redis, schema: SchemaRegistry, storage_config
) -> None:
    repo = GameRepository(
        redis_client, schema, dataclasses.replace(storage_config, finished_game_ttl=0.5)
    )
    game = await repo.create_game(CHAT, doc())
    await repo.finish_game(game, doc(), result(game))
    assert await repo.load_finished_game(CHAT, game.game_id) is not None
    await asyncio.sleep(0.8)
    assert await repo.load_finished_game(CHAT, game.game_id) is None
    assert await repo.finished_game_ids(CHAT) == []
    assert (await repo.player_stats(ANNA)).total("games") == 1  # statistics stay


def test_results_are_validated() -> None:
    game = StoredGame(CHAT, 1, 1, doc())
    with pytest.raises(ValueError, match="the winner must be one of the players"):
        result(game, CARLA)
    with pytest.raises(ValueError, match="two different players"):
        result(game, players=(ANNA, ANNA))
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        result(game, variant="chess")
    with pytest.raises(ValueError, match="match_length must be at least 1"):
        result(game, match_length=-1)


async def test_a_game_without_a_chat_counts_only_for_the_players_and_the_global_board(
    repo: GameRepository,
) -> None:
    game = await repo.create_game(CHAT, doc())
    outside = dataclasses.replace(result(game), in_chat=False)
    await repo.finish_game(game, doc(3), outside)

    anna = (await repo.player_stats(ANNA)).by_variant["classic"]
    assert (anna.games, anna.wins, anna.matches) == (1, 1, 1)
    assert await repo.player_rank(ANNA, "classic") == 1
    assert "classic" not in (await repo.player_stats(ANNA, CHAT)).by_variant
    assert await repo.player_rank(ANNA, "classic", CHAT) is None
    assert await repo.load_finished_game(CHAT, game.game_id) is not None
