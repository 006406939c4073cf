"""Games kept under a forum topic's own key: they count for the group's leaderboard and
statistics, and the group can find the topics that hosted a table."""

from __future__ import annotations

import dataclasses

from storage import GameRepository, GameResult

GROUP = -1001234
TOPIC_KEY = (1 << 59) + 12345  # a derived key, as bot.adapters.places makes one
ANNA, BRUNO = 11, 22


async def test_a_topic_game_counts_for_its_group(repo: GameRepository) -> None:
    game = await repo.create_game(TOPIC_KEY, {"schema": 2, "variant": "classic"})
    result = GameResult(
        chat_id=TOPIC_KEY,
        game_id=game.game_id,
        variant="classic",
        match_length=1,
        players=(ANNA, BRUNO),
        names=("Anna", "Bruno"),
        winner_id=ANNA,
        points=(1, 0),
        ends_match=True,
        group_id=GROUP,
    )
    await repo.finish_game(game, {"schema": 2, "variant": "classic", "m": 1}, result)

    assert [e.user_id for e in await repo.leaderboard("classic", GROUP)] == [ANNA, BRUNO]
    assert await repo.leaderboard("classic", TOPIC_KEY) == []
    assert (await repo.player_stats(ANNA, GROUP)).total("wins") == 1
    assert (await repo.player_stats(ANNA, TOPIC_KEY)).total("games") == 0
    # The game's own history stays the topic's.
    assert await repo.finished_game_ids(TOPIC_KEY) == [game.game_id]
    assert await repo.finished_game_ids(GROUP) == []
    assert dataclasses.replace(result, group_id=None).to_dict().get("group_id") is None
    assert result.to_dict()["group_id"] == GROUP


async def test_the_group_finds_its_topics(repo: GameRepository) -> None:
    assert await repo.topics_of(GROUP) == {}
    await repo.remember_topic(GROUP, TOPIC_KEY, 7)
    await repo.remember_topic(GROUP, TOPIC_KEY + 1, 9)
    await repo.remember_topic(GROUP, TOPIC_KEY, 7)  # again: no duplicate
    assert await repo.topics_of(GROUP) == {TOPIC_KEY: 7, TOPIC_KEY + 1: 9}
    assert await repo.topics_of(GROUP - 1) == {}
