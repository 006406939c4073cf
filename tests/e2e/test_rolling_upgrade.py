"""A rolling upgrade: while a newer version of the bot and this one serve the same Redis, a
game the newer one wrote (a newer schema) is left exactly as it is by this one, which asks
the players to retry shortly instead of calling the game broken and replacing it."""

from __future__ import annotations

import json
import time

import pytest

from engine.serialize import SCHEMA_VERSION

from .conftest import BotUnderTest, post_challenge, start_match
from .fake_telegram import FakeChat, FakeUser, RecordedRequest

TOO_NEW = "Questo tavolo è gestito da una versione più recente di Tavola, riprova tra poco."
TURN_SECONDS = 4


async def _written_by_a_newer_version(bot: BotUnderTest, chat: int) -> dict[bytes, bytes]:
    """Turn the chat's stored game into one of the next schema; returns the stored record."""
    key = bot.repo.keys.game(chat)
    doc = json.loads(await bot.repo.client.hget(key, "doc"))
    doc["schema"] = SCHEMA_VERSION + 1
    doc["a_field_of_the_future"] = [1, 2, 3]
    await bot.repo.client.hset(key, "doc", json.dumps(doc))
    return await bot.repo.client.hgetall(key)


def _time_up(request: RecordedRequest) -> bool:
    media = request.params.get("media") or {}
    return request.method == "editMessageMedia" and "Tempo scaduto" in str(media.get("caption"))


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_a_newer_versions_game_is_left_untouched_by_presses_commands_and_timers(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    due = await bot.repo.get_deadline(group.id)
    assert due is not None
    stored = await _written_by_a_newer_version(bot, group.id)

    press = await bot.press(group, anna, board, "8/5")
    assert press.alert == TOO_NEW
    for command in ("/partita", "/sfida classico 1", "/suggerimento"):
        (text,) = (await bot.say(group, anna, command)).texts()
        assert text == TOO_NEW, command

    while time.time() < due + 1.5:
        await bot.tg.settle(quiet=0.2)  # the deadline passes, this version's timers running
    assert not [r for r in bot.tg.requests if _time_up(r)]
    assert await bot.repo.client.hgetall(bot.repo.keys.game(group.id)) == stored
    assert await bot.repo.get_deadline(group.id) == pytest.approx(due, abs=0.01)


async def test_accepting_a_challenge_never_replaces_a_newer_versions_game(
    bot: BotUnderTest, tg_group_pair: tuple[FakeChat, FakeChat], anna: FakeUser, bruno: FakeUser
) -> None:
    group, other = tg_group_pair
    card = await post_challenge(bot, group, anna, "classico 1")
    # Meanwhile a newer worker started a game in the chat (copied here from another chat).
    bot.dice.queue_opening(3, 1)
    await start_match(bot, other, anna, bruno, "classico 1")
    record = await bot.repo.client.hgetall(bot.repo.keys.game(other.id))
    await bot.repo.client.hset(bot.repo.keys.game(group.id), mapping=record)
    stored = await _written_by_a_newer_version(bot, group.id)

    reaction = await bot.press(group, bruno, card, "Accetta")
    assert reaction.alert == TOO_NEW
    assert await bot.repo.client.hgetall(bot.repo.keys.game(group.id)) == stored
    assert await bot.repo.list_challenges(group.id)  # the challenge is still open


@pytest.fixture
def tg_group_pair(group: FakeChat, bot: BotUnderTest) -> tuple[FakeChat, FakeChat]:
    return group, bot.tg.group(-100456, "Altro circolo")
