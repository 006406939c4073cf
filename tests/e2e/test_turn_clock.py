"""The turn clock in view: the caption shows the turn's deadline in Italy's time, the
reminders come at half and at a fifth of the turn, and a game lost on time says so.

The timers are fired directly (as a worker's poller would), so the test does not wait for
the wall clock."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import timeouts
from storage import Timer

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser

ROME = ZoneInfo("Europe/Rome")


async def _reminder(bot: BotUnderTest, group: FakeChat) -> Timer:
    at = await bot.repo.get_reminder(group.id)
    assert at is not None
    return Timer("reminder", group.id, round(at * 1000))


async def _fire(bot: BotUnderTest, timer: Timer) -> None:
    assert bot.app is not None
    await timeouts.fire(bot.app, timer)
    await bot.idle()


async def test_the_caption_shows_the_turns_deadline_in_italian_time(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1 10m")
    due = await bot.repo.get_deadline(group.id)
    assert due is not None
    caption = bot.board(group).caption or ""
    # (entro domani: a test run just before midnight in Italy)
    shown = re.search(r"⏱ Tempo per il turno: entro (?:le|domani alle) (\d\d:\d\d)", caption)
    assert shown, repr(caption)
    # The board is posted before the clock starts: the hour shown is the deadline's minute,
    # or the one before when posting took the turn across a minute.
    expected = {datetime.fromtimestamp(due - lag, ROME).strftime("%H:%M") for lag in (0.0, 5.0)}
    assert shown.group(1) in expected

    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, board, "6/5")
    await bot.press(group, anna, board, "✅ Conferma")  # Bruno's turn: a deadline of his own
    caption = bot.board(group).caption or ""
    assert "Tocca a Bruno" in caption and "⏱ Tempo per il turno: entro " in caption


@pytest.mark.parametrize("bot_options", [{"turn_seconds": 60}])
async def test_reminders_come_at_half_and_at_a_fifth_of_the_turn(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    assert "⏱ Restano 1 minuto per il turno (entro " in (board.caption or "")
    due = await bot.repo.get_deadline(group.id)
    assert due is not None
    first = await _reminder(bot, group)
    assert first.at == pytest.approx(due - 30, abs=0.01)  # at half of a minute

    start = len(bot.tg.requests)
    await _fire(bot, first)
    (sent,) = [r for r in bot.tg.calls(since=start) if r.method == "sendMessage"]
    assert re.fullmatch(
        r"⏰ Anna, hai ancora (\d+ secondi|1 minuto) per giocare il tuo turno\.",
        sent.result["text"],
    )
    second = await _reminder(bot, group)  # a fifth would be 12 s: never less than 15 s
    assert second.at == pytest.approx(due - 15, abs=0.01)

    start = len(bot.tg.requests)
    await _fire(bot, second)
    calls = bot.tg.calls(since=start)
    assert [r.params["message_id"] for r in calls if r.method == "deleteMessage"] == [
        sent.result["message_id"]
    ]  # the earlier reminder makes way for the new one
    assert [r.method for r in calls].count("sendMessage") == 1
    assert await bot.repo.get_reminder(group.id) is None  # no third one


@pytest.mark.parametrize("bot_options", [{"turn_seconds": 60}])
async def test_a_game_lost_on_time_says_time_first(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    due = await bot.repo.get_deadline(group.id)
    assert due is not None
    await _fire(bot, Timer("deadline", group.id, round(due * 1000)))
    caption = bot.board(group).caption or ""
    lines = caption.split("\n")
    (result,) = [line for line in lines if "vince" in line]
    assert result.startswith("⏰ Tempo scaduto per Anna: Bruno vince "), caption
    assert "⏱" not in caption  # a finished game has no clock
    (moves,) = (await bot.say(group, bruno, "/mosse")).texts()
    assert moves.split("\n")[-1] == "⏰ Tempo scaduto per Anna"  # the list ends on the time
