"""The cluster-ready key layout: keys of the first (untagged) layout are moved at start-up,
once, without losing or doubling anything; a finished game's statistics are counted once
even when the worker that finished it died before counting them."""

from __future__ import annotations

import pytest

from storage import GameRepository, GameResult, StorageUnavailableError
from storage.connect import Client
from storage.keys import TIMER_SHARDS, shard_of

CHAT = -3003
ANNA, BRUNO = 11, 22


def test_a_place_and_its_timers_share_one_slot(repo: GameRepository) -> None:
    k = repo.keys
    tag = f"{{s:{shard_of(CHAT)}}}"
    for key in (
        k.game(CHAT), k.deadlines(CHAT), k.reminders(CHAT), k.finished(CHAT, 1),
        k.history(CHAT), k.challenge(CHAT, 1), k.challenges(CHAT), k.away(CHAT),
        k.timer_leases(shard_of(CHAT)), k.pending_counts(shard_of(CHAT)),
    ):  # fmt: skip
        assert tag in key
    assert "{u:11}" in k.stats(ANNA) and "{u:11}" in k.stats(ANNA, CHAT)
    assert "{u:11}" in k.counted(ANNA) and "{u:11}" in k.preferences(ANNA)
    assert len({shard_of(chat) for chat in range(-1000, 0)}) == TIMER_SHARDS


async def _old_layout(repo: GameRepository) -> None:
    """What a single server holds under the first layout: no hash tags anywhere."""
    c, p = repo.client, repo.config.prefix
    await c.hset(f"{p}:game:{CHAT}", mapping={"v": 3, "id": 9, "doc": '{"schema":2}', "ts": 1})
    await c.pexpire(f"{p}:game:{CHAT}", 86_400_000)
    await c.zadd(f"{p}:history:{CHAT}", {"8": 1000})
    await c.hset(
        f"{p}:done:{CHAT}:8", mapping={"v": 2, "doc": '{"schema":2}', "result": "{}", "fin": 1000}
    )
    await c.set(f"{p}:seed:{CHAT}", "seed")
    await c.zadd(f"{p}:deadlines", {str(CHAT): 5_000_000, "-77": 6_000_000})
    await c.zadd(f"{p}:reminders", {str(CHAT): 4_000_000})
    await c.zadd(f"{p}:timer-leases", {f"deadline:{CHAT}:5000000": 1})
    await c.hset(f"{p}:stats:g:{ANNA}", mapping={"classic:games": 4, "classic:rating": "1510.000"})
    await c.hset(f"{p}:stats:c:{CHAT}:{ANNA}", mapping={"classic:games": 2})
    await c.hset(f"{p}:prefs:{ANNA}", mapping={"confirm": "0"})
    await c.zadd(f"{p}:lb:c:{CHAT}:classic", {str(ANNA): 1510})
    await c.zadd(f"{p}:lb:g:classic", {str(ANNA): 1510})
    await c.hset(f"{p}:names", mapping={str(ANNA): "Anna"})  # fmt: skip


async def test_old_keys_move_to_the_new_layout_once(
    repo: GameRepository, redis_client: Client
) -> None:
    await _old_layout(repo)
    assert await repo.migrate_key_layout() > 0

    game = await repo.load_game(CHAT)
    assert game is not None and (game.game_id, game.version) == (9, 3)
    assert 0 < await redis_client.pttl(repo.keys.game(CHAT)) <= 86_400_000
    assert await repo.get_deadline(CHAT) == 5000.0 and await repo.get_deadline(-77) == 6000.0
    assert await repo.get_reminder(CHAT) == 4000.0
    assert await redis_client.zscore(repo.keys.history(CHAT), "8") == 1000
    assert await repo.load_finished_game(CHAT, 8) is not None
    assert await repo.take_dice_seed(CHAT) == "seed"
    stats = await repo.player_stats(ANNA)
    assert stats.name == "Anna" and stats.by_variant["classic"].games == 4
    assert (await repo.player_stats(ANNA, CHAT)).by_variant["classic"].games == 2
    assert await repo.get_preferences(ANNA) == {"confirm": "0"}
    assert [e.user_id for e in await repo.leaderboard("classic", CHAT)] == [ANNA]
    assert [e.user_id for e in await repo.leaderboard("classic")] == [ANNA]
    p = repo.config.prefix
    left = [k async for k in redis_client.scan_iter(match=f"{p}:*")]
    assert all(
        b"{" in k
        for k in left
        if not k.decode().split(":", 3)[-1].startswith(("names", "lb:g", "layout"))
    ), left

    # Done once: a second start finds the marker; an old key written since stays put.
    await redis_client.set(f"{p}:seed:{CHAT}", "late")
    assert await repo.migrate_key_layout() == 0
    assert await redis_client.get(f"{p}:seed:{CHAT}") == b"late"


async def test_a_migration_cut_short_is_finished_by_the_next_start(
    repo: GameRepository, redis_client: Client
) -> None:
    await _old_layout(repo)
    p = repo.config.prefix
    # A start that copied the game and died before dropping the old key.
    old = f"{p}:game:{CHAT}"
    await redis_client.restore(repo.keys.game(CHAT), 0, await redis_client.dump(old))
    await repo.migrate_key_layout()
    assert await redis_client.exists(f"{p}:game:{CHAT}") == 0
    game = await repo.load_game(CHAT)
    assert game is not None and game.game_id == 9


def _result(game_id: int) -> GameResult:
    return GameResult(
        chat_id=CHAT, game_id=game_id, variant="classic", match_length=3,
        players=(ANNA, BRUNO), names=("Anna", "Bruno"), winner_id=ANNA,
        points=(2, 0), ends_match=True,
    )  # fmt: skip


async def test_statistics_left_by_a_dead_worker_are_counted_once(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_000_000.0]
    repo._clock = lambda: clock[0]
    game = await repo.create_game(CHAT, {"schema": 2})
    counting = repo._apply_counting

    async def dies(*_: object) -> tuple[float, float]:
        raise StorageUnavailableError("the worker died here")

    monkeypatch.setattr(repo, "_apply_counting", dies)
    with pytest.raises(StorageUnavailableError):
        await repo.finish_game(game, {"schema": 2, "end": True}, _result(game.game_id))
    monkeypatch.setattr(repo, "_apply_counting", counting)
    assert await repo.load_game(CHAT) is None  # the game itself is finished
    assert (await repo.player_stats(ANNA)).by_variant == {}

    assert await repo.count_leftovers() == 0  # its worker may still be counting
    clock[0] += 31
    assert await repo.count_leftovers() == 1
    clock[0] += 31
    assert await repo.count_leftovers() == 0
    anna = (await repo.player_stats(ANNA)).by_variant["classic"]
    assert (anna.games, anna.wins, anna.matches) == (1, 1, 1) and anna.rating > 1500
    assert [e.user_id for e in await repo.leaderboard("classic", CHAT)] == [ANNA, BRUNO]


async def test_counting_a_result_twice_counts_it_once(repo: GameRepository) -> None:
    game = await repo.create_game(CHAT, {"schema": 2})
    counting = await repo._counting(game, _result(game.game_id))
    first = await repo._apply_counting(counting)
    assert await repo._apply_counting(counting) == first
    bruno = (await repo.player_stats(BRUNO, CHAT)).by_variant["classic"]
    assert (bruno.games, bruno.losses) == (1, 1)


async def test_timers_are_claimed_after_the_server_lost_its_scripts(
    repo: GameRepository, redis_client: Client
) -> None:
    """The shards are claimed in one pipeline of EVALSHA: a server that forgot the script (it
    restarted) answers NOSCRIPT, and the claim loads it and still returns every due timer."""
    for chat in (-1, -2, -3, -4):
        await repo.set_deadline(chat, 1000.0)
    await redis_client.script_flush()
    timers = await repo.claim_due_timers("deadline", 30)
    assert sorted(t.chat_id for t in timers) == [-4, -3, -2, -1]
    assert await repo.claim_due_timers("deadline", 30) == []


async def test_games_are_counted_across_every_node(repo: GameRepository) -> None:
    chats = [CHAT - i for i in range(6)]  # spread over several shards, hence nodes
    assert len({shard_of(chat) for chat in chats}) > 1
    for chat in chats:
        await repo.create_game(chat, {"schema": 2})
    assert await repo.count_games() == len(chats)
