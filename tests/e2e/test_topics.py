"""Forum supergroups: each topic is a table of its own.

A challenge made in a topic, its card, its board with every announcement and result, and the
answers to /partita and /classifica stay in that topic; two topics of one group host two games
at once; a topic that is closed (or deleted) mid-game adjourns its game instead of retrying,
and /partita in the reopened topic resumes it.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.adapters import places
from bot.game.table import Table
from bot.handlers import analysis
from bot.texts import messages as T
from bot.texts import replay_export as RX
from bot.texts import review as R
from engine import format_play
from engine.ai import hint
from engine.ai.levels import ranked

from .conftest import (
    FINISHED_GAME_BUTTONS,
    LAUNCH,
    BotUnderTest,
    Reaction,
    choose_step,
    turn_holder,
)
from .fake_telegram import FakeChat, FakeTelegram, FakeTopic, FakeUser, StoredMessage

FORUM_ID = -1001777000
TURN_SECONDS = 4  # see test_turn_timeout: long enough for the first board, short for a test


@pytest.fixture(name="mod")
def moderator(tg: FakeTelegram) -> FakeUser:
    """The group's admin, who creates (and closes) the topics."""
    return tg.user(110, "Moderatore", "moderatore")


@pytest.fixture(name="forum")
def forum_group(bot: BotUnderTest) -> FakeChat:
    return bot.tg.group(FORUM_ID, "Circolo del backgammon", supergroup=True, forum=True)


async def new_topic(bot: BotUnderTest, forum: FakeChat, mod: FakeUser, name: str) -> FakeTopic:
    topic = bot.tg.create_topic(forum, mod, name)
    await bot.idle()
    return topic


async def say(
    bot: BotUnderTest,
    topic: FakeTopic,
    user: FakeUser,
    text: str,
    reply_to: StoredMessage | None = None,
) -> Reaction:
    """A user writes in a topic; the bot's reaction once it is complete."""
    start = len(bot.tg.requests)
    bot.tg.send_message(topic.chat, user, text, reply_to=reply_to, topic=topic)
    await bot.idle()
    return Reaction(bot.tg.calls(since=start))


def sent(bot: BotUnderTest, reaction: Reaction, method: str = "sendMessage") -> StoredMessage:
    (request,) = reaction.of(method)
    assert request.ok, request.error
    return bot.tg.message(FORUM_ID, request.result["message_id"])


def board(bot: BotUnderTest, topic: FakeTopic) -> StoredMessage:
    photos = [m for m in bot.tg.topic_messages(topic, from_bot=True) if m.photo is not None]
    assert photos, f"no board in topic {topic.name}"
    return photos[-1]


def key(topic: FakeTopic) -> int:
    return places.topic_key(topic.chat.id, topic.thread_id)


async def table(bot: BotUnderTest, topic: FakeTopic) -> Table:
    stored = await bot.repo.load_game(key(topic))
    assert stored is not None, f"no game in topic {topic.name}"
    return Table.from_doc(stored.doc)


async def start_in(
    bot: BotUnderTest, topic: FakeTopic, challenger: FakeUser, opponent: FakeUser, options: str
) -> StoredMessage:
    """/sfida in the topic, Lancia la sfida, Accetta: the new board (in the topic)."""
    card = sent(bot, await say(bot, topic, challenger, f"/sfida {options}"))
    assert card.thread_id == topic.thread_id
    assert (await bot.press(topic.chat, challenger, card, LAUNCH)).alert is None
    reaction = await bot.press(topic.chat, opponent, card, "Accetta")
    assert reaction.alert is None, reaction.alert
    shown = sent(bot, reaction, "sendPhoto")
    assert shown.thread_id == topic.thread_id
    return shown


async def play_one(bot: BotUnderTest, topic: FakeTopic, players: tuple[FakeUser, FakeUser]) -> bool:
    """One press on the topic's board as the player on turn would; True once it is over."""
    shown = board(bot, topic)
    labels = shown.button_texts
    if "Rivincita" in labels:
        return True
    user = turn_holder(shown.caption or "", players)
    assert user is not None, f"nobody is on turn: {shown.caption!r}"
    if "✅ Conferma" in labels:
        data = shown.data_for("✅ Conferma")
    elif "🎲 Tira i dadi" in labels:
        data = shown.data_for("🎲 Tira i dadi")
    else:
        state = (await table(bot, topic)).state
        legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
        step = choose_step(shown, legal)
        assert step is not None, f"no move button to press: {labels}"
        data = step
    reaction = await bot.press(topic.chat, user, shown, data=data)
    assert reaction.answer is not None and reaction.alert is None, reaction.answer
    return False


@pytest.mark.slow
async def test_two_games_in_two_topics_each_stay_in_their_topic(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
) -> None:
    dario = bot.tg.user(104, "Dario", "dario")
    first = await new_topic(bot, forum, mod, "Tavolo 1")
    second = await new_topic(bot, forum, mod, "Tavolo 2")
    await start_in(bot, first, anna, bruno, "classico 1")
    await start_in(bot, second, carla, dario, "classico 1")  # the group is not "busy"
    # The group knows its tables' topics (what concerns the whole group finds them).
    assert await bot.repo.topics_of(forum.id) == {
        key(first): first.thread_id,
        key(second): second.thread_id,
    }

    games = {first.thread_id: (anna, bruno), second.thread_id: (carla, dario)}
    done = {first.thread_id: False, second.thread_id: False}
    for _ in range(4000):  # the two games' presses interleaved
        if all(done.values()):
            break
        for topic in (first, second):
            if not done[topic.thread_id]:
                done[topic.thread_id] = await play_one(bot, topic, games[topic.thread_id])
    assert all(done.values())

    # Everything the bot posted is in one of the two topics: nothing in General.
    posted = bot.tg.chat_messages(forum, from_bot=True)
    assert posted and all(m.thread_id in games for m in posted), [
        (m.message_id, m.thread_id, m.text or m.caption) for m in posted
    ]
    for topic in (first, second):
        a, b = games[topic.thread_id]
        boards = [m for m in bot.tg.topic_messages(topic, from_bot=True) if m.photo is not None]
        assert len(boards) == 1  # the whole game in one board, in its topic
        final = boards[0].caption or ""
        assert "vince la partita" in final
        assert a.first_name in final and b.first_name in final
        assert boards[0].button_texts == ["Rivincita", *FINISHED_GAME_BUTTONS]
        assert await bot.repo.load_game(key(topic)) is None  # archived: the topic is free
    # A group's leaderboard covers all its topics; it is answered where it was asked.
    answer = sent(bot, await say(bot, second, anna, "/classifica"))
    assert answer.thread_id == second.thread_id
    for user in (anna, bruno, carla, dario):
        assert user.first_name in (answer.text or "")


async def test_challenge_in_topic_names_the_mentioned_user_not_the_topic_creator(
    bot: BotUnderTest, forum: FakeChat, mod: FakeUser, anna: FakeUser, bruno: FakeUser
) -> None:
    topic = await new_topic(bot, forum, mod, "Sfide")
    card = sent(bot, await say(bot, topic, anna, "/sfida @bruno classico 1"))
    assert card.thread_id == topic.thread_id
    assert "Avversario: @bruno" in (card.text or "")
    assert "Moderatore" not in (card.text or "")
    await bot.press(forum, anna, card, LAUNCH)
    refused = await bot.press(forum, mod, card, "Accetta")
    assert refused.alert == "Questa sfida non è per te."
    reaction = await bot.press(forum, bruno, card, "Accetta")
    assert sent(bot, reaction, "sendPhoto").thread_id == topic.thread_id
    players = (await table(bot, topic)).players
    assert [p.user_id for p in players] == [anna.id, bruno.id]


async def test_board_and_leaderboard_commands_answer_in_the_topic_asked(
    bot: BotUnderTest, forum: FakeChat, mod: FakeUser, anna: FakeUser, bruno: FakeUser
) -> None:
    playing = await new_topic(bot, forum, mod, "Tavolo")
    chatting = await new_topic(bot, forum, mod, "Chiacchiere")
    old = await start_in(bot, playing, anna, bruno, "lungo 1")

    again = sent(bot, await say(bot, playing, bruno, "/partita"), "sendPhoto")
    assert again.thread_id == playing.thread_id
    retired = bot.tg.message(forum, old.message_id)
    assert retired.caption == T.BOARD_MOVED and not retired.buttons
    assert board(bot, playing).message_id == again.message_id

    elsewhere = sent(bot, await say(bot, chatting, bruno, "/partita"))
    assert elsewhere.thread_id == chatting.thread_id
    assert "nessuna partita in corso" in (elsewhere.text or "")

    ranking = sent(bot, await say(bot, playing, anna, "/classifica"))
    assert ranking.thread_id == playing.thread_id
    general = bot.tg.send_message(forum, anna, "/classifica")  # General: no thread
    await bot.idle()
    answer = bot.tg.last_bot_message(forum)
    assert answer.thread_id is None
    assert answer.reply_to is not None and answer.reply_to.message_id == general.message_id


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_closed_topic_adjourns_the_game_and_partita_resumes_it(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    topic = await new_topic(bot, forum, mod, "Tavolo")
    bot.dice.queue_opening(3, 1)
    await start_in(bot, topic, anna, bruno, "classico 1")
    before = await table(bot, topic)

    bot.tg.close_topic(topic, mod)
    await bot.idle()
    closed_at = len(bot.tg.requests)
    await asyncio.sleep(TURN_SECONDS + 1.5)  # past the reminder and the deadline
    await bot.idle()

    # Nothing was sent, retried or lost while the topic was closed.
    assert [r.method for r in bot.tg.calls(since=closed_at)] == []
    stored = await bot.repo.load_game(key(topic))
    assert stored is not None
    assert not Table.from_doc(stored.doc).state.is_over
    assert Table.from_doc(stored.doc).state == before.state
    assert await bot.repo.get_deadline(key(topic)) is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    bot.tg.reopen_topic(topic, mod)
    resumed = sent(bot, await say(bot, topic, anna, "/partita"), "sendPhoto")
    assert resumed.thread_id == topic.thread_id
    assert await bot.repo.get_deadline(key(topic)) is not None  # the clock runs again
    assert not await play_one(bot, topic, (anna, bruno))  # and the game goes on
    assert (await table(bot, topic)).state != before.state


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_deleted_topic_is_tried_once_and_its_game_kept(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    topic = await new_topic(bot, forum, mod, "Tavolo")
    bot.dice.queue_opening(3, 1)
    await start_in(bot, topic, anna, bruno, "classico 1")
    bot.expect_errors("message thread not found")

    bot.tg.delete_topic(topic)  # Telegram sends no update for it: the next send finds out
    deleted_at = len(bot.tg.requests)
    reminder = await bot.tg.wait_for("sendMessage", timeout=2 * TURN_SECONDS)
    assert not reminder.ok and "thread not found" in (reminder.error or "")
    assert int(reminder.params["message_thread_id"]) == topic.thread_id
    await asyncio.sleep(TURN_SECONDS)  # past the deadline
    await bot.idle()

    assert [(r.method, r.ok) for r in bot.tg.calls(since=deleted_at)] == [("sendMessage", False)]
    stored = await bot.repo.load_game(key(topic))
    assert stored is not None and not Table.from_doc(stored.doc).state.is_over
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _play_typed(
    bot: BotUnderTest, topic: FakeTopic, user: FakeUser, worst: bool = False
) -> None:
    state = (await table(bot, topic)).state
    play = ranked(state, deep=False)[-1][0] if worst else hint(state, 1)[0][0]
    reaction = await say(bot, topic, user, f"/mossa {format_play(play)}")
    assert not reaction.of("sendMessage"), reaction.texts()


@pytest.mark.slow
async def test_hints_resign_prompt_analysis_replay_and_export_stay_in_the_topic(
    bot: BotUnderTest,
    forum: FakeChat,
    mod: FakeUser,
    anna: FakeUser,
    bruno: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analysis, "NOTICE_AFTER_SECONDS", 0.0)  # "in corso" is sent too
    topic = await new_topic(bot, forum, mod, "Tavolo")
    bot.dice.queue_opening(6, 1)
    bot.dice.queue_rolls((5, 3), (4, 2))
    shown = await start_in(bot, topic, anna, bruno, "classico 1 suggerimenti analisi")

    sent(bot, await bot.press(forum, anna, shown, R.BTN_HINT), "sendPhoto")
    sent(bot, await say(bot, topic, anna, "/suggerimento"), "sendPhoto")
    await _play_typed(bot, topic, anna, worst=True)
    await _play_typed(bot, topic, bruno)
    await _play_typed(bot, topic, anna)
    prompt = sent(bot, await say(bot, topic, bruno, "/abbandona"))
    await bot.press(forum, bruno, prompt, "Vittoria semplice · 1 punto")
    await bot.press(forum, anna, prompt, "Accetto l'abbandono")
    assert await bot.repo.load_game(key(topic)) is None  # over and archived

    final = bot.tg.message(forum, shown.message_id)  # the board (hints are photos too)
    start = len(bot.tg.requests)
    assert (await bot.press(forum, bruno, final, R.BTN_ANALYSIS)).alert is None
    assert bot.app is not None
    await asyncio.gather(*list(analysis.running(bot.app)))
    await bot.idle()
    texts = [str(r.params.get("text")) for r in bot.tg.calls(since=start) if r.ok]
    assert R.ANALYSIS_RUNNING in texts and any("Analisi ·" in t for t in texts)
    sent(bot, await bot.press(forum, anna, final, "🎞 Rivedi"), "sendAnimation")
    sent(bot, await say(bot, topic, anna, "/esporta"), "sendDocument")
    verified = sent(bot, await say(bot, topic, bruno, "/verifica"))
    assert "ultima partita conclusa non ha usato" in (verified.text or "")  # the topic's game
    other = await new_topic(bot, forum, mod, "Altro")
    assert (await say(bot, other, anna, "/rivedi")).texts() == [RX.NO_FINISHED_GAME]

    assert len(bot.tg.topic_messages(topic, from_bot=True)) >= 10
    elsewhere = [
        m.thread_id
        for m in bot.tg.chat_messages(forum, from_bot=True)
        if m.thread_id != topic.thread_id
    ]
    assert elsewhere == [other.thread_id]  # only the answer in the other topic
