"""Turn time limits: a reminder before the deadline, then the game is lost on time.

One test lets the real timers fire with a limit of a few seconds (the options parser allows a
minute at least, so the limit comes from the bot's settings); the other fires the stored
timers directly, to show that a deadline set for an older turn does nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot import timeouts
from storage import Timer

from .conftest import FINISHED_GAME_BUTTONS, LAUNCH, BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser, RecordedRequest

# Short enough for a quick test, long enough that drawing the first board (a second or
# more on a busy machine) leaves time for the reminder, at the middle of the turn.
TURN_SECONDS = 8

TIMEOUT_LINE = re.compile(
    r"⏰ Tempo scaduto per (Anna|Bruno): (Anna|Bruno) vince \d punt[oi] \((\w| )+\)\."
)


async def _jobs(bot: BotUnderTest, group: FakeChat) -> dict[str, Timer]:
    """The chat's timers as stored (the deadline and the reminder of the turn)."""
    found = {}
    for kind, at in (
        ("deadline", await bot.repo.get_deadline(group.id)),
        ("reminder", await bot.repo.get_reminder(group.id)),
    ):
        if at is not None:
            found[kind] = Timer(kind, group.id, round(at * 1000))
    return found


async def _fire(bot: BotUnderTest, timer: Timer) -> None:
    assert bot.app is not None
    await timeouts.fire(bot.app, timer)


def _edited_with(text: str) -> Callable[[RecordedRequest], bool]:
    """A predicate for FakeTelegram.wait_for: the board edited with `text` in its caption."""

    def matches(request: RecordedRequest) -> bool:
        media = request.params.get("media") or {}
        return request.method == "editMessageMedia" and text in str(media.get("caption", ""))

    return matches


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_turn_timeout_reminds_then_loses_the_game_on_time(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    reaction = await bot.say(group, anna, "/sfida classico 1")
    assert f"{TURN_SECONDS} secondi per turno" in reaction.texts()[0]
    card = bot.tg.last_bot_message(group)
    await bot.press(group, anna, card, LAUNCH)
    await bot.press(group, bruno, card, "Accetta")
    board = bot.board(group)
    assert "Tocca ad Anna (" in (board.caption or "")

    reminder = await bot.tg.wait_for("sendMessage", timeout=2 * TURN_SECONDS)
    # The one reminder of a turn this short comes at its middle.
    assert re.fullmatch(
        r"⏰ Anna, hai ancora [1-4] second[oi] per giocare il tuo turno\.", reminder.result["text"]
    )
    assert reminder.result["reply_to_message"]["message_id"] == board.message_id
    await bot.tg.wait_for(_edited_with("Tempo scaduto"), timeout=2 * TURN_SECONDS)
    # The game is over: the reminder would only mislead, so it goes.
    deleted = await bot.tg.wait_for("deleteMessage", timeout=5)
    assert deleted.params["message_id"] == reminder.result["message_id"]
    await bot.tg.settle(quiet=0.05)
    assert bot.tg.message(group, reminder.result["message_id"]).deleted

    caption = bot.board(group).caption or ""
    assert TIMEOUT_LINE.search(caption), caption
    assert "Tempo scaduto per Anna: Bruno vince" in caption
    assert "🏆" not in caption  # a single game: the line above says who won it
    assert bot.board(group).button_texts == ["Rivincita", *FINISHED_GAME_BUTTONS]
    assert await bot.stored(group) is None
    (text,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1" in text and "Sconfitte: 1" in text


async def test_steps_keep_the_turn_deadline_and_an_earlier_turns_timer_does_nothing(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    first = await _jobs(bot, group)
    assert set(first) == {"deadline", "reminder"}
    due = await bot.repo.get_deadline(group.id)
    assert due == pytest.approx(first["deadline"].at, abs=0.01)

    # A step and a take-back are part of the same turn: the clock is not reset.
    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, board, "↩ Annulla")
    await bot.press(group, anna, board, "8/5")
    assert await _jobs(bot, group) == first
    assert await bot.repo.get_deadline(group.id) == pytest.approx(due, abs=0.01)

    await bot.press(group, anna, board, "6/5")
    await bot.press(group, anna, board, "✅ Conferma")
    current = await _jobs(bot, group)  # Bruno's turn: a fresh deadline and fresh timers
    assert current["deadline"].at > first["deadline"].at
    assert current["reminder"].at > first["reminder"].at

    start = len(bot.tg.requests)
    await _fire(bot, first["reminder"])
    await bot.idle()
    await _fire(bot, first["deadline"])
    await bot.idle()
    assert bot.tg.calls(since=start) == []  # an outdated timer neither reminds nor ends

    await _fire(bot, current["reminder"])
    await bot.idle()
    (reminder,) = bot.tg.calls("sendMessage", since=start)
    assert reminder.result["text"].startswith("⏰ Bruno, hai ancora 10 minuti")
    await _fire(bot, current["deadline"])
    await bot.idle()
    await bot.tg.wait_for("deleteMessage", since=start, timeout=5)  # the reminder goes
    assert bot.tg.message(group, reminder.result["message_id"]).deleted
    caption = bot.board(group).caption or ""
    assert "⏰ Tempo scaduto per Bruno: Anna vince" in caption
    assert await bot.stored(group) is None
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Partite: 1" in text

    again = len(bot.tg.requests)
    await _fire(bot, current["deadline"])  # a second firing must not record a second result
    await bot.idle()
    assert bot.tg.calls(since=again) == []
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Partite: 1" in text


async def test_a_reminder_goes_once_its_player_has_moved(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    start = len(bot.tg.requests)
    await _fire(bot, (await _jobs(bot, group))["reminder"])
    await bot.idle()
    (reminder,) = bot.tg.calls("sendMessage", since=start)
    assert reminder.result["text"].startswith("⏰ Anna, hai ancora")

    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, board, "↩ Annulla")  # still her turn: the reminder stays
    assert not bot.tg.message(group, reminder.result["message_id"]).deleted
    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, board, "6/5")
    await bot.press(group, anna, board, "✅ Conferma")
    deleted = await bot.tg.wait_for("deleteMessage", since=start, timeout=5)
    assert deleted.params["message_id"] == reminder.result["message_id"]
    assert "Tocca a Bruno" in (bot.board(group).caption or "")
