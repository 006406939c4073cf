"""Turn timers kept in Redis: a due deadline fires however late the bot is, after a storage
outage, once across workers, and after a restart that had many timed games to find.

Each test plays a single game with a limit of a few seconds (the limit comes from the bot's
settings) and waits for the board to say the time is up.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.app import build_application
from bot.computer import ComputerPool
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig
from storage.connect import make_client

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest

TURN_SECONDS = 4
TIME_UP = "Tempo scaduto per"
OTHER_GAMES = 1000  # timed games of other chats stored when the bot restarts


def _time_up(request: RecordedRequest) -> bool:
    media = request.params.get("media") or {}
    return request.method == "editMessageMedia" and TIME_UP in str(media.get("caption", ""))


def _reminder(request: RecordedRequest) -> bool:
    return request.method == "sendMessage" and "⏰" in str(request.params.get("text"))


async def _sleep_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.time()))


async def _timed_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> float:
    """A single game with Anna on turn; returns her deadline."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    due = await bot.repo.get_deadline(group.id)
    assert due is not None
    return due


async def _assert_lost_on_time_once(bot: BotUnderTest, group: FakeChat, anna: FakeUser) -> None:
    await bot.tg.settle(quiet=0.3)
    assert len([r for r in bot.tg.requests if _time_up(r)]) == 1
    assert await bot.stored(group) is None
    (text,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1" in text and "Sconfitte: 1" in text


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_a_deadline_fires_after_the_event_loop_stalls_at_its_due_time(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    due = await _timed_match(bot, group, anna, bruno)
    await _sleep_until(due - 0.05)
    time.sleep(2.0)  # the whole process stalls (a long GC pause, a blocking call) at the due time
    start = time.time()
    await bot.tg.wait_for(_time_up, since=0, timeout=10)
    lateness = time.time() - due
    assert lateness < 2.0 + 3.0, lateness  # late by the stall and a poll, never never
    assert time.time() - start < 3.0
    await _assert_lost_on_time_once(bot, group, anna)


async def test_a_deadline_due_during_a_storage_outage_fires_once_storage_is_back(
    own_valkey: EmbeddedValkey,
    tmp_path: Path,
    tg: FakeTelegram,
    computer: ComputerPool,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
) -> None:
    client = make_client(own_valkey.url)
    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION), StorageConfig())
    bot = BotUnderTest(tg, repo, computer=computer, turn_seconds=TURN_SECONDS)
    await bot.start()
    restarted: EmbeddedValkey | None = None
    try:
        due = await _timed_match(bot, group, anna, bruno)
        port = own_valkey.port
        own_valkey.stop()  # AOF keeps the game and its deadline
        await _sleep_until(due + 2.0)  # the deadline passes while storage is away
        assert not [r for r in tg.requests if _time_up(r)]
        restarted = EmbeddedValkey(tmp_path / "valkey", port=port)
        restarted.start()
        await tg.wait_for(_time_up, since=0, timeout=15)
        await _assert_lost_on_time_once(bot, group, anna)
    finally:
        await bot.stop()
        if restarted is not None:
            restarted.stop()
        await client.aclose()


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_two_workers_on_one_redis_remind_and_end_a_turn_once(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    computer: ComputerPool,
    redis_url: str,
) -> None:
    due = await _timed_match(bot, group, anna, bruno)
    # A second worker of the same bot on the same Redis (it serves no updates here: its
    # only part is to race the first for the timers).
    other_repo = GameRepository(
        make_client(redis_url), bot.repo.schema, StorageConfig(prefix=bot.repo.config.prefix)
    )
    other = build_application(bot.settings, other_repo, dice=bot.dice, computer=computer)
    await other.initialize()
    assert other.post_init is not None
    await other.post_init(other)
    await other.start()
    try:
        await _sleep_until(due)
        await bot.tg.wait_for(_time_up, since=0, timeout=10)
        await _assert_lost_on_time_once(bot, group, anna)
        reminders = [r for r in bot.tg.requests if _reminder(r)]
        assert len(reminders) == 1, [r.params["text"] for r in reminders]
    finally:
        await other.stop()
        await other.shutdown()
        await other_repo.client.aclose()


@pytest.mark.slow
@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_a_restart_among_many_timed_games_fires_the_deadline_due_meanwhile(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    due = await _timed_match(bot, group, anna, bruno)
    stored = await bot.stored(group)
    assert stored is not None
    later = time.time() + 3600
    for chat in range(1, OTHER_GAMES + 1):  # other chats' games, each with its turn timed
        await bot.repo.create_game(-chat, stored.doc, deadline_at=later)
    await bot.stop()
    await _sleep_until(due + 0.5)  # the deadline passes while no worker runs

    started = time.time()
    await bot.start()
    start_up = time.time() - started
    await bot.tg.wait_for(_time_up, since=0, timeout=10)
    assert start_up < 2.0, start_up
    await _assert_lost_on_time_once(bot, group, anna)
    assert await bot.repo.get_deadline(-1) == pytest.approx(later, abs=0.01)
