"""Turn time limits: a reminder before the deadline, the game lost after it.

The timers live in Redis, not in the process: a turn's deadline is written atomically with
each move (storage's save scripts), its reminder right after, each in a sorted set by due
time. A :class:`TimerPoller` in every worker claims the due ones every ``POLL_SECONDS``
(storage's claim script gives each to exactly one worker, under a lease) and fires them.
So a timer fires however late the process is (a stalled event loop, a restart, a storage
outage: late, never never), once across workers, and start-up has nothing to reschedule.

A turn has one deadline: steps and take-backs do not restart it. A fired timer acts only
if it is still the one stored for its chat's game (the deadline to the millisecond; the
reminder must belong to that deadline), so a timer of an older turn does nothing. A
reminder is deleted once its turn is over (the player moved, the game ended): it would
only mislead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import CallbackContext, ContextTypes

from bot import pipeline
from bot.adapters import places
from bot.adapters.ptb_types import BotApp
from bot.game.clock import Clock
from bot.game.flow import result_notes
from bot.game.table import Table
from bot.services import of_app
from bot.texts import messages as T
from engine import GameState
from storage import (
    CorruptGameError,
    GameNotFoundError,
    GameRepository,
    NewerGameError,
    StorageError,
    StoredGame,
    Timer,
    VersionConflictError,
)
from storage.repository import DEADLINE, REMINDER

log = logging.getLogger(__name__)

#: When the player on turn is reminded, as fractions of the turn time left: at half of it and
#: at a fifth, so a day-long turn and a minute-long one both get a useful warning.
REMINDER_FRACTIONS = (0.5, 0.2)
#: A reminder comes at least this long before the end (time enough to find the board and
#: move), within the turn's second half: a turn under half a minute gets one, at its middle.
REMINDER_MIN = 15.0
DUE_TOLERANCE = 0.01  # storage keeps deadlines to the millisecond
REMINDER_MEMORY = 2 * 86400.0  # longer than any turn; Telegram lets a bot delete for 48 h
POLL_SECONDS = 0.5  # how often each worker looks for due timers
LEASE_SECONDS = 15.0  # a claimed timer whose worker died is fired by another after this
CLAIM_BATCH = 64  # timers of one kind claimed per poll at most
STOP_SECONDS = 1.0  # how long stopping waits for timers being fired
COUNT_EVERY = 20  # polls between two looks for finished games left uncounted (10 s)


def reminder_leads(table: Table) -> tuple[float, ...]:
    """How long before the deadline the player is reminded, earliest reminder first."""
    turn = float(table.turn_seconds or 0)
    if turn <= 0:
        return ()
    leads = {min(max(turn * fraction, REMINDER_MIN), turn / 2) for fraction in REMINDER_FRACTIONS}
    return tuple(sorted(leads, reverse=True))


def next_reminder(table: Table, due: float, after: float) -> float | None:
    """When the next reminder of the turn ending at ``due`` falls, strictly after ``after``
    (a time), or None when no reminder is left before the deadline."""
    for lead in reminder_leads(table):
        if due - lead > after + DUE_TOLERANCE:
            return due - lead
    return None


async def cancel(repo: GameRepository, chat_id: int) -> None:
    """Stop every timer of the chat (deadline and reminder): the one entry point for code
    that ends or suspends a chat's clock."""
    await repo.cancel_timers(chat_id)


def follow(app: BotApp, game: StoredGame, table: Table, clock: Clock, due_at: float | None) -> None:
    """Make the chat's reminder match what a save did to the clock (the save itself wrote
    the deadline); a turn that is over takes its reminder message with it. The pipeline's
    :class:`~bot.services.ClockFollower`, handed over by the application."""
    if clock is Clock.KEEP:
        return
    app.create_task(_follow(app, game, table, clock, due_at), name=f"timers:{game.chat_id}")


async def _follow(
    app: BotApp, game: StoredGame, table: Table, clock: Clock, due_at: float | None
) -> None:
    repo = of_app(app).repo
    try:
        if clock is Clock.STOP:
            await repo.clear_reminder(game.chat_id)
        elif due_at is not None:
            await schedule(repo, game, table, due_at)
    except StorageError:
        # The deadline is safe (saved with the move); only its reminder may be missed.
        log.warning("cannot set the reminder of chat %s", game.chat_id)
    if table.turn_seconds:
        place = places.of_game(game.chat_id, table.inline_message, table.topic, table.group)
        await on_turn_over(app, game.chat_id, place.chat_id)


async def on_turn_over(app: BotApp, chat: int, to: int | None = None) -> None:
    """Delete the time reminder of a turn that is over, if one was sent; ``to`` is the chat
    its messages are in (a forum topic's group), when it is not the place's key."""
    try:
        message_id = await of_app(app).repo.forget_message(chat, REMINDER)
    except StorageError:
        log.warning("cannot look up the reminder of chat %s", chat)
        return
    if message_id is not None:
        with contextlib.suppress(BadRequest, Forbidden):  # already deleted, or too old
            await app.bot.delete_message(chat if to is None else to, message_id)


async def schedule(repo: GameRepository, stored: StoredGame, table: Table, due: float) -> None:
    """Set the reminder of the turn whose deadline (already stored) is ``due``."""
    # A reminder is a message of its own: an inline table (in a chat the bot may not write
    # in) shows its time limit in the caption only.
    wanted = table.turn_seconds and pipeline.needs_human(table) and table.inline_message is None
    at = next_reminder(table, due, time.time()) if wanted else None
    if at is not None:
        await repo.set_reminder(stored.chat_id, at, deadline=due)
    else:
        await repo.clear_reminder(stored.chat_id)


def _context(app: BotApp) -> ContextTypes.DEFAULT_TYPE:
    return CallbackContext(app)


async def _current(app: BotApp, chat_id: int) -> tuple[StoredGame, Table, float] | None:
    """The chat's game and its deadline in force, if it has both.

    :class:`StorageError` propagates: the timer is then retried."""
    repo = of_app(app).repo
    stored = await repo.load_game(chat_id)
    due = await repo.get_deadline(chat_id)
    if stored is None or due is None:
        return None
    return stored, Table.from_doc(stored.doc), due


async def on_reminder(app: BotApp, timer: Timer) -> None:
    """Remind the player on turn how long is left, if the reminder belongs to the turn in
    force and its deadline has not passed."""
    found = await _current(app, timer.chat_id)
    if found is None:
        return
    stored, table, due = found
    leads = reminder_leads(table)
    if not leads or not 0 < due - timer.at <= leads[0] + DUE_TOLERANCE:
        return  # a reminder of an earlier turn
    left = due - time.time()
    if left <= 0:
        return  # too late to help: the deadline fires now
    # Completed by ``fire`` once sent: a worker that dies before (this send may wait seconds
    # for the token's budget) leaves it to another once its lease lapses; the lease is
    # renewed meanwhile, so no other worker sends it too.
    later = next_reminder(table, due, timer.at)
    place = places.of_game(stored.chat_id, table.inline_message, table.topic, table.group)
    await on_turn_over(app, stored.chat_id, place.chat_id)  # the earlier reminder goes
    try:
        sent = await app.bot.send_message(
            text=T.timeout_reminder(table.actor.name, left),
            parse_mode="HTML",
            reply_to_message_id=stored.board_message_id,
            **place.send(),
        )
    except BadRequest as exc:
        if not places.topic_gone(exc):
            raise
        await of_app(app).painter.adjourn(stored.chat_id, str(exc))
        return
    finally:
        # The turn's next reminder (e.g. at a fifth after the one at half) replaces this
        # one only once this one is done: set before, it would be lost with its worker.
        if later is not None:
            await of_app(app).repo.set_reminder(stored.chat_id, later, deadline=due)
    await of_app(app).repo.remember_message(
        stored.chat_id, REMINDER, sent.message_id, REMINDER_MEMORY
    )


async def on_deadline(app: BotApp, timer: Timer) -> None:
    """The player on turn loses on time, if this is still the turn's deadline."""
    found = await _current(app, timer.chat_id)
    if found is None:
        return
    stored, table, due = found
    if abs(due - timer.at) > DUE_TOLERANCE:
        return  # the turn moved on: a newer timer (or none) is in charge
    if table.state.is_over:
        if pipeline.between_games(table):
            await _start_next_game(app, stored, table)
        return
    state = _lost_on_time(table)
    after = table.fresh_notes().with_state(state)
    after = after.with_state(state, *result_notes(after, state))
    try:
        await pipeline.save_and_show(_context(app), stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        return  # somebody moved at the last second: their move stands


def _lost_on_time(table: Table) -> GameState:
    """The state once the player on turn has run out of time: they have left the table, so
    in a match or a series they forfeit it, in a single game they lose that game."""
    state, side = table.state, table.state.turn
    if state.config.length > 1:
        return state.forfeit(side, on_time=True)
    return state.timeout(side)


async def _start_next_game(app: BotApp, stored: StoredGame, table: Table) -> None:
    """The pause between two games is over: the next game starts by itself, with its turn
    clock running (a player who is not there then loses on time, as in any turn)."""
    svc = of_app(app)
    after = table.fresh_notes(T.NEXT_GAME_STARTED_BY_ITSELF).with_state(table.state.next_game())
    # The chat's seed, whose commitment was shown with the result (as "Partita successiva"
    # would take it); the salt is the players' words, as for every game.
    after = await pipeline.with_fresh_dice(svc, stored.chat_id, after)
    try:
        await pipeline.save_and_show(_context(app), stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        return  # a player started it (or left) at the last second


async def fire(app: BotApp, timer: Timer) -> None:
    """Fire one claimed timer, then mark it done; a storage failure leaves it claimed, to be
    fired again once its lease lapses (or at once, if it can be given back)."""
    repo = of_app(app).repo
    handler = on_deadline if timer.kind == DEADLINE else on_reminder
    renewing = asyncio.create_task(_renew(repo, timer), name=f"lease:{timer.chat_id}")
    try:
        await handler(app, timer)
    except NewerGameError:
        # A newer version's game: left to a newer worker, which claims it once this
        # claim lapses; never completed (nor its game ended) here.
        log.info("timer %s of chat %s left to a newer version", timer.kind, timer.chat_id)
        return
    except CorruptGameError as exc:
        log.warning("timer %s of chat %s dropped: %s", timer.kind, timer.chat_id, exc)
    except StorageError as exc:
        log.warning("timer %s of chat %s postponed: %s", timer.kind, timer.chat_id, exc)
        with contextlib.suppress(StorageError):
            await repo.release_timer(timer)
        return
    except TelegramError as exc:  # e.g. the bot was removed from the chat
        log.warning("timer %s of chat %s: %s", timer.kind, timer.chat_id, exc)
    except Exception:
        log.exception("timer %s of chat %s failed", timer.kind, timer.chat_id)
    finally:
        renewing.cancel()
    with contextlib.suppress(StorageError):  # its lease lapses; firing again does nothing
        await repo.complete_timer(timer)


async def _renew(repo: GameRepository, timer: Timer) -> None:
    """Keep a timer's claim while it is being fired, however long its sends wait."""
    while True:
        await asyncio.sleep(LEASE_SECONDS / 3)
        with contextlib.suppress(StorageError):
            if not await repo.renew_timer(timer, LEASE_SECONDS):
                return


class TimerPoller:
    """The loop that claims due timers from Redis and fires them, one task each.

    Started with the application and stopped with it; it also ends by itself once the
    application has stopped running, so an application stopped without its shutdown hooks
    leaves no poller behind.
    """

    def __init__(self, app: BotApp, interval: float = POLL_SECONDS) -> None:
        self.app = app
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()
        self._unavailable = False
        self._polls = 0
        self._stopping = False

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="timer poller")

    async def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Stop claiming; give the timers being fired a moment (an unfinished one is
        fired again by whichever worker claims it after its lease)."""
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            task.cancel()
            # The loop also ends by itself (``_stopping``): a cancel that lands inside a
            # storage call can be swallowed there, and awaiting the task would then wait
            # for ever.
            _, still = await asyncio.wait({task}, timeout=timeout + self.interval)
            if still:
                log.warning("the timer poller did not stop in time; left behind")
        if self._firing:
            _, pending = await asyncio.wait(self._firing, timeout=timeout)
            for left in pending:
                left.cancel()

    async def _run(self) -> None:
        was_running = False
        while not self._stopping:
            if self.app.running:
                was_running = True
                try:
                    await self.poll()
                except Exception:  # a bug must not stop every timer for good
                    log.exception("looking for due timers failed")
            elif was_running:
                return  # the application stopped
            await asyncio.sleep(self.interval)

    async def poll(self) -> int:
        """Claim and start firing every timer due now; returns how many. Every
        ``COUNT_EVERY`` polls, also count the statistics a dead worker left uncounted."""
        repo = of_app(self.app).repo
        started = 0
        self._polls += 1
        if self._polls % COUNT_EVERY == 0:
            with contextlib.suppress(StorageError):
                await repo.count_leftovers()
        for kind in (DEADLINE, REMINDER):
            try:
                timers = await repo.claim_due_timers(kind, LEASE_SECONDS, CLAIM_BATCH)
            except StorageError as exc:
                if not self._unavailable:
                    log.warning("cannot look for due timers (retrying): %s", exc)
                self._unavailable = True
                return started
            if self._unavailable:
                log.info("looking for due timers again")
                self._unavailable = False
            for timer in timers:
                task = asyncio.create_task(fire(self.app, timer), name=f"timer:{timer.chat_id}")
                self._firing.add(task)
                task.add_done_callback(self._firing.discard)
                started += 1
        return started
