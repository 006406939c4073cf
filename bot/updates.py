"""How updates reach the handlers: many chats at once, each chat in order, each update once.

PTB runs every update as a task of its own and limits how many run at once with a semaphore
taken *before* the update processor is asked to handle it. A chat-ordered processor that
waited for a chat's turn inside that semaphore would let one flooding chat fill every slot
with updates that only wait, and freeze every other chat. So PTB's own limit is set out of
reach, and ours applies to updates actually being handled:

- each chat (or inline message) has its own queue, drained by one task, in arrival order, so
  a chat never races itself into version conflicts;
- that task takes one of ``MAX_CONCURRENT_UPDATES`` handling slots per update it runs, and
  gives it back between updates: a chat's backlog holds no slot at all, however long;
- once the application stops, backlogs are dropped (logged once) and a handler still running
  after ``STOP_GRACE_SECONDS`` is cancelled, so shutting down during a flood stays quick.

``claim_once`` runs before every handler and drops an update that was already handled, by
this process before a restart or by another webhook worker: Telegram may deliver an update
more than once. In the same round trip it looks at the unreachable marker of the update's
chat (see ``bot.reach``), and takes it when there is one: the chat is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import ApplicationHandlerStop, BaseUpdateProcessor, ContextTypes

from bot import reach
from bot.adapters import places
from bot.services import services

log = logging.getLogger(__name__)

#: Updates handled at once across all chats; a chat's own updates still run one by one.
MAX_CONCURRENT_UPDATES = 256
#: PTB's semaphore, set out of reach: it would be held by updates waiting for their chat.
_PTB_UNBOUNDED = 1 << 30
#: How long an update id is remembered: Telegram keeps an unconfirmed update 24 hours at most.
#: Ids share bitmaps (``storage.handled``), so the length costs no bytes per update.
UPDATE_MEMORY_SECONDS = 24 * 3600
#: Once the application stops, how long a running handler may go on before it is cancelled.
STOP_GRACE_SECONDS = 2.0
#: How often the processor looks whether the application is stopping (while it has work).
STOP_POLL_SECONDS = 0.1


def chat_key(update: object) -> int | None:
    """The place (a chat, a forum topic, an inline message: see ``bot.adapters.places``) whose order
    an update must keep (None: no ordering needed). Two topics of one group are two places:
    their games go on side by side."""
    if not isinstance(update, Update):
        return None
    place = places.of_update(update)  # a press on an inline message: that message's game
    if place is not None:
        return place.key
    if update.effective_user is not None:
        return update.effective_user.id
    return None


class _Pending:
    """One update waiting in its chat's queue: its handling, and who waits for its end."""

    __slots__ = ("coroutine", "done")

    def __init__(self, coroutine: Awaitable[Any], done: asyncio.Future[None]) -> None:
        self.coroutine = coroutine
        self.done = done


def _discard(coroutine: Awaitable[Any]) -> None:
    """Drop an update's handling that will never run (without a "never awaited" warning)."""
    if isinstance(coroutine, Coroutine):
        coroutine.close()


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Concurrent across chats, sequential within a chat, and only handling takes a slot.

    ``running`` (see :meth:`watch`) tells whether the application still runs; without it the
    processor never drops anything (unit tests, an application that is never stopped).
    """

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(_PTB_UNBOUNDED)
        self.handling_limit = max_concurrent_updates
        self._slots: asyncio.Semaphore | None = None  # created on the running loop
        self._queues: dict[int, deque[_Pending]] = {}
        self._drainers: dict[int, asyncio.Task[None]] = {}
        self._handling: set[asyncio.Task[Any]] = set()
        self._running: Callable[[], bool] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stopping = False
        self.dropped = 0  # updates dropped because the application stopped first

    def watch(self, running: Callable[[], bool]) -> None:
        """Follow the application's state: ``running()`` False means stop taking updates."""
        self._running = running

    @property
    def backlog(self) -> int:
        """Updates waiting for their chat's turn (not counting those being handled)."""
        return sum(len(queue) for queue in self._queues.values())

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self._stopping:
            self._drop(coroutine)
            return
        self._ensure_watcher()
        key = chat_key(update)
        if key is None:
            await self._handle(coroutine)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(key, deque()).append(_Pending(coroutine, done))
        if key not in self._drainers:
            self._drainers[key] = asyncio.create_task(self._drain(key), name=f"chat:{key}")
        await done

    async def _drain(self, key: int) -> None:
        """Handle a chat's updates one by one until its queue is empty."""
        queue = self._queues[key]
        try:
            while queue:
                pending = queue.popleft()
                if self._stopping:
                    self._drop(pending.coroutine)
                    pending.done.set_result(None)
                    continue
                try:
                    await self._handle(pending.coroutine)
                except asyncio.CancelledError:
                    if not self._stopping:
                        raise  # the drainer itself was cancelled
                    pending.done.set_result(None)  # cut short by the stop: not an error
                except BaseException as exc:  # handed to the update's own task
                    pending.done.set_exception(exc)
                else:
                    pending.done.set_result(None)
        finally:
            for pending in queue:  # only left when the drainer itself was cancelled
                self._drop(pending.coroutine)
                if not pending.done.done():
                    pending.done.set_result(None)
            queue.clear()
            del self._queues[key]
            self._drainers.pop(key, None)

    async def _handle(self, coroutine: Awaitable[Any]) -> None:
        """Run one update's handling within a slot; cancellable once the application stops."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.handling_limit)
        async with self._slots:
            task = asyncio.ensure_future(coroutine)
            self._handling.add(task)
            try:
                await task
            finally:
                self._handling.discard(task)

    def _drop(self, coroutine: Awaitable[Any]) -> None:
        if self.dropped == 0:
            log.warning("the bot is stopping: updates still waiting for their chat are dropped")
        self.dropped += 1
        _discard(coroutine)

    def _ensure_watcher(self) -> None:
        if self._running is not None and (self._watcher is None or self._watcher.done()):
            self._watcher = asyncio.create_task(self._watch(), name="update processor watch")

    async def _watch(self) -> None:
        """While there is work, notice a stopping application and wind the work down."""
        assert self._running is not None
        while self._queues or self._handling:
            if not self._running():
                await self._stop_now()
                return
            await asyncio.sleep(STOP_POLL_SECONDS)

    async def _stop_now(self) -> None:
        """Drop every backlog; give running handlers a short grace, then cancel them."""
        self._stopping = True
        for queue in self._queues.values():
            while queue:
                pending = queue.popleft()
                self._drop(pending.coroutine)
                pending.done.set_result(None)
        if self.dropped:
            log.warning("%d waiting updates dropped at shutdown", self.dropped)
        running = list(self._handling)
        if running:
            _, late = await asyncio.wait(running, timeout=STOP_GRACE_SECONDS)
            for task in late:
                task.cancel()
            if late:
                log.warning("%d handlers cancelled at shutdown", len(late))

    async def initialize(self) -> None:
        """A restarted application takes updates again."""
        self._stopping = False

    async def shutdown(self) -> None:
        """Nothing is left to wait for: the application joined its update queue first."""
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None


async def claim_once(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update that was already handled (a duplicate delivery) before any handler;
    in the same round trip, notice that its chat, marked unreachable, is back."""
    repo = services(context).repo
    claimed, away = await repo.claim_update_from(
        context.bot.id, update.update_id, reach.sign_of_life(update), UPDATE_MEMORY_SECONDS
    )
    if not claimed:
        log.info("update %s was already handled: skipped", update.update_id)
        raise ApplicationHandlerStop
    if away is not None:
        await reach.came_back(update, context, away)
