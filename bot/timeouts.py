"""Turn time limits: a reminder before the deadline, the game lost after it.

Deadlines live in storage (written atomically with each move), so they survive a restart:
``reschedule_all`` re-creates the jobs at start-up. A turn has one deadline: steps and
take-backs do not restart it. A job carries the game id and the deadline it was scheduled
for, and does nothing unless that deadline is still the one stored. A reminder is deleted
once its turn is over (the player moved, the game ended): it would only mislead.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, TypedDict, cast

from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes, Job

from bot import pipeline, places
from bot.flow import result_notes
from bot.ptb_types import BotApp, BotJobQueue
from bot.services import of_app, services
from bot.table import Table
from bot.texts import messages as T
from storage import GameNotFoundError, StorageError, StoredGame, VersionConflictError

log = logging.getLogger(__name__)

REMINDER_FRACTION = 0.2  # remind when a fifth of the time is left...
REMINDER_MAX = 120.0  # ...but no earlier than two minutes before the end
DUE_TOLERANCE = 0.01  # storage keeps deadlines to the millisecond
REMINDER = "reminder"  # the kind of message storage remembers for tidying
REMINDER_MEMORY = 2 * 86400.0  # longer than any turn; Telegram lets a bot delete for 48 h


def _names(chat_id: int) -> tuple[str, str]:
    return f"deadline:{chat_id}", f"reminder:{chat_id}"


def cancel(job_queue: BotJobQueue | None, chat_id: int) -> None:
    if job_queue is None:
        return
    for name in _names(chat_id):
        for job in job_queue.get_jobs_by_name(name):
            job.schedule_removal()


def follow(job_queue: BotJobQueue | None, saved: pipeline.Saved) -> None:
    """Make the chat's timers match what the save did to the clock; a turn that is over
    takes its reminder with it."""
    if saved.clock is pipeline.Clock.STOP:
        cancel(job_queue, saved.game.chat_id)
    elif saved.clock is pipeline.Clock.NEW and saved.due_at is not None:
        schedule(job_queue, saved.game, saved.table, saved.due_at)
    if saved.clock is not pipeline.Clock.KEEP and saved.table.turn_seconds and job_queue:
        chat = saved.game.chat_id
        place = places.of_game(chat, saved.table.inline_message, saved.table.topic)
        tidy: TidyJob = {"chat": chat, "to": place.chat_id}
        job_queue.run_once(on_turn_over, 0, data=tidy, name=f"tidy:{chat}")


class TidyJob(TypedDict):
    """The data of the job that tidies up after a turn."""

    chat: int  # the place's key
    to: int  # the chat its messages are in (a forum topic's group; else the key)


class TurnTimer(TypedDict):
    """The data of a turn's deadline and reminder jobs."""

    chat: int
    game: int
    due: float  # the deadline, epoch seconds


def _data(job: Job[Any] | None) -> dict[str, Any]:
    """A job's data, which this module always sets to a dict (a TidyJob or a TurnTimer)."""
    assert job is not None
    if not isinstance(job.data, dict):
        raise TypeError(f"job {job.name!r} carries no dict: {job.data!r}")
    return job.data


def turn_timer(job: Job[Any] | None) -> TurnTimer:
    """The TurnTimer a deadline or reminder job carries."""
    return cast(TurnTimer, _data(job))


async def on_turn_over(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Delete the time reminder of a turn that is over, if one was sent."""
    tidy = cast(TidyJob, _data(context.job))
    chat = tidy["chat"]
    try:
        message_id = await services(context).repo.forget_message(chat, REMINDER)
    except StorageError:
        log.warning("cannot look up the reminder of chat %s", chat)
        return
    if message_id is not None:
        with contextlib.suppress(BadRequest, Forbidden):  # already deleted, or too old
            await context.bot.delete_message(tidy.get("to", chat), message_id)


def schedule(job_queue: BotJobQueue | None, stored: StoredGame, table: Table, due: float) -> None:
    """Replace the chat's timers with a reminder and a deadline at ``due``."""
    if job_queue is None:
        return
    cancel(job_queue, stored.chat_id)
    if not (table.turn_seconds and pipeline.needs_human(table)):
        return
    now = time.time()
    data: TurnTimer = {"chat": stored.chat_id, "game": stored.game_id, "due": due}
    deadline_name, reminder_name = _names(stored.chat_id)
    job_queue.run_once(on_deadline, max(0.0, due - now), data=data, name=deadline_name)
    lead = min(REMINDER_MAX, table.turn_seconds * REMINDER_FRACTION)
    # A reminder is a message of its own: an inline table (in a chat the bot may not write
    # in) shows its time limit in the caption only.
    if due - lead > now and table.inline_message is None:
        job_queue.run_once(on_reminder, due - lead - now, data=data, name=reminder_name)


async def _current(
    context: ContextTypes.DEFAULT_TYPE, job: Job[Any]
) -> tuple[StoredGame, Table] | None:
    """The game this timer belongs to, if its deadline is still the one in force."""
    data = turn_timer(job)
    repo = services(context).repo
    try:
        stored = await repo.load_game(data["chat"])
        due = await repo.get_deadline(data["chat"])
    except StorageError:
        log.exception("cannot load game for a deadline")
        return None
    if stored is None or stored.game_id != data["game"]:
        return None
    if due is None or abs(due - data["due"]) > DUE_TOLERANCE:
        return None  # the turn moved on: a newer timer (or none) is in charge
    return stored, Table.from_doc(stored.doc)


async def on_reminder(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None
    found = await _current(context, context.job)
    if found is None:
        return
    stored, table = found
    # round, not int: a job fires a few milliseconds late, and "119 secondi" reads oddly.
    left = max(1, round(turn_timer(context.job)["due"] - time.time()))
    place = places.of_game(stored.chat_id, table.inline_message, table.topic)
    try:
        sent = await context.bot.send_message(
            text=T.timeout_reminder(table.actor.name, left),
            parse_mode="HTML",
            reply_to_message_id=stored.board_message_id,
            **place.send(),
        )
    except BadRequest as exc:
        if not places.topic_gone(exc):
            raise
        await services(context).painter.adjourn(stored.chat_id, str(exc))
        return
    repo = services(context).repo
    await repo.remember_message(stored.chat_id, REMINDER, sent.message_id, REMINDER_MEMORY)


async def on_deadline(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None
    found = await _current(context, context.job)
    if found is None:
        return
    stored, table = found
    state = table.state.timeout(table.state.turn)
    after = table.fresh_notes().with_state(state)
    after = after.with_state(state, *result_notes(after, state))
    try:
        await pipeline.save_and_show(context, stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        return  # somebody moved at the last second: their move stands


async def reschedule_all(app: BotApp) -> int:
    """Recreate the timers of every pending deadline (at start-up). Returns how many."""
    svc = of_app(app)
    count = 0
    for deadline in await svc.repo.pending_deadlines():
        try:
            stored = await svc.repo.load_game(deadline.chat_id)
        except StorageError:
            log.warning("skipping unreadable game of chat %s", deadline.chat_id)
            continue
        if stored is None:
            continue
        schedule(app.job_queue, stored, Table.from_doc(stored.doc), deadline.due_at)
        count += 1
    return count
