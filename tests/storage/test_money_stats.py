"""A money game's statistics: its points apart from the matches' points, no match and no
Elo counted, each count once however often it is repeated (a count queued before money
games existed still counts)."""

from __future__ import annotations

from storage import GameRepository, GameResult, StoredGame, scripts

CHAT = -2002
ANNA, BRUNO = 11, 22


def _doc() -> dict[str, object]:
    return {"schema": 2, "variant": "classic", "moves": 0}


def _money_result(game: StoredGame, points: tuple[int, int]) -> GameResult:
    return GameResult(
        chat_id=game.chat_id,
        game_id=game.game_id,
        variant="classic",
        match_length=0,
        players=(ANNA, BRUNO),
        names=("Anna", "Bruno"),
        winner_id=ANNA if points[0] else BRUNO,
        points=points,
        ends_match=True,
    )


async def test_a_money_game_counts_its_points_apart_and_no_match(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, _doc())
    outcome = await repo.finish_game(game, _doc(), _money_result(game, (4, 0)))
    assert outcome.archived and outcome.rating_changes == ()
    for chat in (CHAT, None):
        anna = (await repo.player_stats(ANNA, chat)).by_variant["classic"]
        assert (anna.games, anna.wins, anna.points, anna.matches) == (1, 1, 0, 0)
        assert (anna.money_games, anna.money_points, anna.money_points_against) == (1, 4, 0)
        assert anna.rating == 1500.0
        bruno = (await repo.player_stats(BRUNO, chat)).by_variant["classic"]
        assert (bruno.losses, bruno.points_against, bruno.money_points_against) == (1, 0, 4)
    assert await repo.leaderboard("classic") == []  # a money game rates nobody


async def test_a_repeated_or_old_count_counts_once(repo: GameRepository) -> None:
    key, counted = repo.keys.stats(ANNA), repo.keys.counted(ANNA)
    script = repo.client.register_script(scripts.COUNT_RESULT)
    head = ["token-1", 1000, 0, "classic", "1500.0", "0.0"]
    money = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0]
    for _ in range(2):  # a retried step
        await script(keys=[key, counted], args=[*head, *money])
    old = [1, 1, 0, 0, 2, 0, 1, 1, 0, 0, 3]  # queued by a release without money games
    await script(keys=[key, counted], args=["token-2", 1000, 0, "classic", "1500.0", "0.0", *old])
    anna = (await repo.player_stats(ANNA)).by_variant["classic"]
    assert (anna.games, anna.points, anna.matches) == (2, 2, 1)
    assert (anna.money_games, anna.money_points) == (1, 3)
