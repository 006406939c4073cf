"""A forum group that removes the bot while games are played in its topics.

Each topic is a place of its own (its own key in storage, its own turn clock), but a kick
concerns the whole group: every topic's game is adjourned at once, whether the bot hears of
the kick (``my_chat_member``) or finds out from the first refused request, made in one topic.
Nothing is sent to the group, retried or lost meanwhile; added back, ``/partita`` in each
topic posts that topic's board there and its game goes on with a fresh clock.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.texts import messages as T
from storage import StoredGame

from .conftest import BotUnderTest, logged_troubles, requests_to
from .fake_telegram import FakeChat, FakeTopic, FakeUser
from .test_topics import (  # noqa: F401 (fixtures)
    forum_group,
    key,
    moderator,
    new_topic,
    play_one,
    say,
    sent,
    start_in,
    table,
)

pytestmark = pytest.mark.slow

# Two games are started before the kick: long enough that the first one's reminder has not
# come yet on a busy machine, short enough to wait past both games' deadlines.
TURN_SECONDS = 8


async def _two_games(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    players: list[FakeUser],
    gap: float = 0.0,
) -> tuple[FakeTopic, FakeTopic]:
    """A game in each of two topics of the forum, both on a turn clock, the second one
    started ``gap`` seconds after the first."""
    anna, bruno, carla, dario = players
    first = await new_topic(bot, forum, mod, "Tavolo 1")
    second = await new_topic(bot, forum, mod, "Tavolo 2")
    await start_in(bot, first, anna, bruno, "classico 1")
    await asyncio.sleep(gap)
    await start_in(bot, second, carla, dario, "classico 1")
    for topic in (first, second):
        assert await bot.repo.get_deadline(key(topic)) is not None
    return first, second


async def _games(bot: BotUnderTest, topics: tuple[FakeTopic, ...]) -> list[StoredGame | None]:
    return [await bot.repo.load_game(key(topic)) for topic in topics]


async def _adjourned(
    bot: BotUnderTest, topics: tuple[FakeTopic, ...], before: list[StoredGame | None]
) -> None:
    """Every topic's game kept as it was, its clock stopped."""
    assert await _games(bot, topics) == before
    for topic in topics:
        assert await bot.repo.get_deadline(key(topic)) is None, topic.name


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_kicked_from_a_forum_adjourns_every_topic_and_partita_resumes_each_in_its_topic(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    dario = bot.tg.user(104, "Dario", "dario")
    topics = await _two_games(bot, forum, mod, [anna, bruno, carla, dario])
    before = await _games(bot, topics)
    assert all(before)

    start = len(bot.tg.requests)
    bot.tg.remove_bot_from_group(forum, mod)
    await bot.idle()
    await asyncio.sleep(TURN_SECONDS + 1.5)  # past both games' reminders and deadlines
    await bot.idle()
    assert requests_to(forum, bot.tg.calls(since=start)) == []
    assert logged_troubles(caplog) == []
    await _adjourned(bot, topics, before)

    bot.tg.add_bot_to_group(forum, mod, old="kicked", new="member")
    await bot.idle()
    greeting = bot.tg.last_bot_message(forum)
    assert greeting.text is not None and T.GAME_WAITING_HERE.split(":")[0] in greeting.text

    pairs = {topics[0].thread_id: (anna, bruno), topics[1].thread_id: (carla, dario)}
    for topic, old in zip(topics, before, strict=True):
        assert old is not None and old.board_message_id is not None
        resumed_at = time.time()
        shown = sent(bot, await say(bot, topic, pairs[topic.thread_id][0], "/partita"), "sendPhoto")
        assert shown.thread_id == topic.thread_id
        retired = bot.tg.message(forum, old.board_message_id)  # the old board points on
        assert retired.caption == T.BOARD_MOVED and not retired.buttons
        due = await bot.repo.get_deadline(key(topic))
        assert due is not None and resumed_at + TURN_SECONDS - 0.5 <= due
        played = (await table(bot, topic)).state
        assert not await play_one(bot, topic, pairs[topic.thread_id])  # the game goes on
        assert (await table(bot, topic)).state != played
    assert logged_troubles(caplog) == []


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_a_missed_kick_found_in_one_topic_adjourns_every_topic_of_the_forum(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    dario = bot.tg.user(104, "Dario", "dario")
    # The second game's reminder comes well after the first one's: a request made after
    # the first refusal would be seen (two reminders due at once are both in flight before
    # either answer comes back).
    topics = await _two_games(bot, forum, mod, [anna, bruno, carla, dario], gap=2.0)
    before = await _games(bot, topics)

    start = len(bot.tg.requests)
    bot.tg.remove_bot_from_group(forum, mod, notify=False)
    bot.expect_errors("bot was kicked from the supergroup chat")
    # The first game's reminder is refused; nothing after it, past the second's deadline.
    await asyncio.sleep(TURN_SECONDS + 2.5)
    await bot.idle()
    (refused,) = requests_to(forum, bot.tg.calls(since=start))
    assert refused.method == "sendMessage" and not refused.ok
    assert int(refused.params["message_thread_id"]) == topics[0].thread_id
    assert logged_troubles(caplog) == []
    assert await bot.repo.unreachable(forum.id) is not None
    await _adjourned(bot, topics, before)
