"""A Bot API rate limiter that throttles and pauses each chat on its own.

Why not PTB's ``AIORateLimiter``: on a 429 it pauses every request of the whole bot, so one
flooded group freezes every other game; and it offers no way to ask "could I send to this
chat now?", which a board painter needs to wait for the budget *before* it picks the newest
state to draw (so throttled edits coalesce instead of queueing stale boards).

The model, after Telegram's documented limits:

- a global budget (30 requests per second) for requests that carry a ``chat_id``;
- a budget per chat: groups, supergroups and channels (negative ids, ``@names``) 20 per 60 s,
  private chats about one per second with a small burst (3 per 3 s by default); an inline
  message (edited by ``inline_message_id``) counts as a chat of its own with a group's budget;
  the chats named by ``unbudget`` (the operator's channel where inline boards are uploaded)
  have no budget of their own, only the global one;
- a 429 (:class:`telegram.error.RetryAfter`) for a chat pauses that chat only; a 429 for a
  request without a chat pauses the global budget;
- ``answerCallbackQuery`` is not limited by Telegram and must arrive within seconds, so it
  is never throttled nor held by anybody's pause; neither are other requests without a chat
  (``getMe``, ``setMyCommands``...) throttled, though they respect a global pause.

A chat over its budget keeps a short queue of its own (``MAX_WAITING`` requests, in arrival
order) and sheds what matters least when a flood fills it, by priority
(:class:`Priority`): a board first, then answers (messages with buttons, edited texts), then
chatter (plain texts). A plain text that repeats one the chat was just sent is dropped at
once while the chat is over budget, and one that repeats a text still waiting shares that
request's answer (coalesced). A dropped request raises :class:`ReplyDroppedError` to its
caller; the first drop of a flood is logged, not every one.

Budgets are rolling windows ("at most N requests in any T seconds"). A request occupies its
slot from the moment it is sent and is dated when its answer arrives: the server received it
before then, so the next request, sent a full window later, reaches the server a full window
after it too, whatever the network latency; no safety margin is needed.

``aiolimiter`` (behind PTB's rate-limiter extra, not installed) is a leaky bucket: it would allow a
burst of 20 and then one request every 3 s, i.e. 21 in a minute, and it cannot say how long
until capacity returns, which :meth:`ChatRateLimiter.ready_in` needs. Hence a small window of
our own.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import math
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

JSONResult = bool | dict[str, Any] | list[dict[str, Any]]
Callback = Callable[..., Coroutine[Any, Any, JSONResult]]
ChatKey = int | str

# Not limited by Telegram, and a late answer is a useless answer ("query is too old").
UNLIMITED_ENDPOINTS = frozenset({"answerCallbackQuery", "answerInlineQuery", "getUpdates"})
# The margin added to a RetryAfter, as AIORateLimiter does: Telegram rounds retry_after down.
RETRY_MARGIN = 0.1
#: Requests that may wait for one chat's budget; beyond, the least important is dropped.
MAX_WAITING = 8
#: Sends and edits of a board: the last thing a flooded chat should lose.
BOARD_ENDPOINTS = frozenset(
    {"sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"}
)
# Per-chat states are dropped once idle, but only when there are this many (no sweep per call).
_SWEEP_THRESHOLD = 1024


class ReplyDroppedError(TelegramError):
    """A request to a chat over its budget was dropped (a flood shed it, or it repeated a
    text the chat has just been sent): nothing was sent, and nothing needs to be."""

    def __init__(self, chat: object) -> None:
        super().__init__(f"dropped: chat {chat} is over its budget")


class Priority(IntEnum):
    """What a flooded chat keeps first (higher) and sheds first (lower)."""

    CHATTER = 0  # a plain text: an error, a help text, a notice
    ANSWER = 1  # a message with buttons, an edited text: someone acts on it
    BOARD = 2  # a board: the state of a game


def priority_of(endpoint: str, data: dict[str, Any]) -> Priority:
    """The priority of a request, from its method and its content."""
    if endpoint in BOARD_ENDPOINTS:
        return Priority.BOARD
    if endpoint == "sendMessage" and data.get("reply_markup") is None:
        return Priority.CHATTER
    return Priority.ANSWER


def _chatter_text(priority: Priority, data: dict[str, Any]) -> str | None:
    """The text of a plain message (what repeats are recognised by), else None."""
    text = data.get("text") if priority is Priority.CHATTER else None
    return text if isinstance(text, str) else None


class _Waiter:
    """A request in its chat's queue; ``followers`` share its answer (coalesced repeats)."""

    __slots__ = ("dropped", "followers", "priority", "text")

    def __init__(self, priority: Priority, text: str | None) -> None:
        self.priority = priority
        self.text = text
        self.dropped = False
        self.followers: list[asyncio.Future[JSONResult]] = []

    def settle(self, result: JSONResult | None, error: BaseException | None) -> None:
        for follower in self.followers:
            if follower.done():
                continue
            if error is None:
                follower.set_result(result if result is not None else False)
            else:
                follower.set_exception(error)
        self.followers.clear()


@dataclass
class LimiterCounters:
    """What happened to the requests of one chat, or of the whole bot (for tests, benchmarks)."""

    sent: int = 0  # requests answered by Telegram with anything but a 429
    retry_after: int = 0  # 429s received
    delayed: int = 0  # requests that had to wait for a budget or a pause before going out
    waited: float = 0.0  # seconds those requests spent waiting
    dropped: int = 0  # requests shed while the chat was over its budget
    coalesced: int = 0  # repeated texts that shared the answer of one still waiting


class _Slot:
    """One request in a window: ``at`` is None while in flight, then the time of its answer."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at: float | None = None


class _Window:
    """At most ``count`` requests in any ``period`` seconds (a rolling window)."""

    __slots__ = ("count", "period", "slots")

    def __init__(self, count: int, period: float) -> None:
        self.count = count
        self.period = period
        self.slots: list[_Slot] = []

    def _prune(self, now: float) -> None:
        horizon = now - self.period
        if any(s.at is not None and s.at <= horizon for s in self.slots):
            self.slots = [s for s in self.slots if s.at is None or s.at > horizon]

    def ready_in(self, now: float) -> float:
        """Seconds until one more request fits; an in-flight request counts as answered now."""
        if self.count <= 0:
            return 0.0
        self._prune(now)
        if len(self.slots) < self.count:
            return 0.0
        oldest = min(now if s.at is None else s.at for s in self.slots)
        return max(oldest + self.period - now, 0.0)

    def reserve(self) -> _Slot:
        slot = _Slot()
        if self.count > 0:
            self.slots.append(slot)
        return slot

    def release(self, slot: _Slot) -> None:
        """The request never reached the server's budget (a 429): give its place back."""
        with contextlib.suppress(ValueError):
            self.slots.remove(slot)

    @property
    def idle(self) -> bool:
        return not self.slots


class _Gate:
    """A window plus a pause, a FIFO lock for its queue and an event for "something changed".

    A chat's gate queues its requests in ``queue`` instead of the lock, so that a flood can
    shed the least important of them; ``recent`` dates the plain texts lately sent.
    """

    __slots__ = (
        "changed",
        "counters",
        "dropping",
        "lock",
        "paused_until",
        "queue",
        "recent",
        "window",
    )

    def __init__(self, window: _Window) -> None:
        self.window = window
        self.paused_until = 0.0
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.counters = LimiterCounters()
        self.queue: deque[_Waiter] = deque()
        self.recent: dict[str, float] = {}
        self.dropping = False

    def ready_in(self, now: float) -> float:
        return max(self.paused_until - now, self.window.ready_in(now), 0.0)

    def notify(self) -> None:
        event, self.changed = self.changed, asyncio.Event()
        event.set()

    def idle(self, now: float) -> bool:
        self.window.ready_in(now)  # prunes
        return (
            self.window.idle
            and self.paused_until <= now
            and not self.lock.locked()
            and not self.queue
        )


class ChatRateLimiter(BaseRateLimiter[int]):
    """Throttles per chat and globally; a 429 pauses only the chat it concerns.

    ``rate_limit_args``, when given to a bot method, is the number of retries after a 429 for
    that call (as with ``AIORateLimiter``). All budgets are constructor parameters so tests can
    use small ones; a count of 0 disables that budget.
    """

    def __init__(
        self,
        *,
        overall_max_rate: int = 30,
        overall_time_period: float = 1.0,
        group_max_rate: int = 20,
        group_time_period: float = 60.0,
        private_max_rate: int = 3,
        private_time_period: float = 3.0,
        max_retries: int = 2,
    ) -> None:
        self._unbudgeted: set[ChatKey] = set()
        self._group_budget = (group_max_rate, group_time_period)
        self._private_budget = (private_max_rate, private_time_period)
        self._max_retries = max_retries
        self._overall_window = (overall_max_rate, overall_time_period)
        self._global: _Gate | None = None  # created on the running loop (asyncio primitives)
        self._chats: dict[ChatKey, _Gate] = {}
        self._totals = LimiterCounters()

    async def initialize(self) -> None:
        """Nothing to open: gates are created lazily on the running loop."""

    async def shutdown(self) -> None:
        """Forget every budget and pause, so a restarted application starts afresh."""
        self._chats.clear()
        self._global = None

    def unbudget(self, chat_id: int | str) -> None:
        """Give a chat no budget of its own (the global one still applies): the operator's
        media chat, where inline boards are uploaded and nobody reads along."""
        self._unbudgeted.add(self._chat_key(chat_id))
        self._chats.pop(self._chat_key(chat_id), None)

    # -- public queries ----------------------------------------------------------------------

    def ready_in(self, chat_id: int | str) -> float:
        """Seconds until a request to ``chat_id`` would go out at once (0.0: right now).

        Counts the chat's budget and pause and the global budget and pause; it consumes
        nothing. A request in flight is assumed to be answered now, so the figure can be a
        lower bound while the chat's window is full of unanswered requests.
        """
        now = self._now()
        key = self._chat_key(chat_id)
        chat = self._chats.get(key)
        chat_wait = chat.ready_in(now) if chat is not None else 0.0
        return max(chat_wait, self._global_gate().ready_in(now))

    async def wait_ready(self, chat_id: int | str) -> None:
        """Return once a request to ``chat_id`` would be sent at once; consumes no budget.

        A painter waits here first and only then picks the newest state to draw, so several
        changes made meanwhile cost one edit. Another task may still take the slot first: the
        request itself then waits in :meth:`process_request` as usual.
        """
        key = self._chat_key(chat_id)
        while True:
            delay = self.ready_in(key)
            if delay <= 0:
                return
            events = [self._global_gate().changed]
            chat = self._chats.get(key)
            if chat is not None:
                events.append(chat.changed)
            await _sleep_or_change(delay, events)

    def counters(self, chat_id: int | str | None = None) -> LimiterCounters:
        """A copy of the counters of one chat (zeros if unknown), or the totals when None.

        A chat's counters are forgotten when its idle state is dropped (only once more than a
        thousand chats are known); the totals are kept for the limiter's lifetime.
        """
        if chat_id is None:
            source = self._totals
        else:
            gate = self._chats.get(self._chat_key(chat_id))
            source = gate.counters if gate is not None else LimiterCounters()
        return LimiterCounters(
            source.sent,
            source.retry_after,
            source.delayed,
            source.waited,
            source.dropped,
            source.coalesced,
        )

    # -- BaseRateLimiter ---------------------------------------------------------------------

    async def process_request(
        self,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> JSONResult:
        """Send one request when its chat's and the global budgets allow, retrying after 429s."""
        if endpoint in UNLIMITED_ENDPOINTS:
            return await callback(*args, **kwargs)
        max_retries = self._max_retries if rate_limit_args is None else rate_limit_args
        raw_chat = data.get("chat_id")
        if raw_chat is None:
            raw_chat = data.get("inline_message_id")
        if raw_chat is None:
            return await self._unthrottled(callback, args, kwargs, max_retries)
        key = self._chat_key(raw_chat)
        limited = not endpoint.startswith("get")  # reading chat info costs no message budget
        priority = priority_of(endpoint, data) if limited else Priority.ANSWER
        text = _chatter_text(priority, data)
        for attempt in range(max_retries + 1):
            chat = self._chat_gate(key)
            glob = self._global_gate()
            shared = self._shed_or_share(chat, key, priority, text)
            if shared is not None:
                return await shared
            entry = _Waiter(priority, text)
            chat_slot, glob_slot = await self._take_slots(chat, glob, key, entry, limited)
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                for gate, slot in ((chat, chat_slot), (glob, glob_slot)):
                    if slot is not None:
                        gate.window.release(slot)
                self._pause(chat, exc, key)
                if attempt >= max_retries:
                    entry.settle(None, exc)
                    raise
                entry.settle(None, ReplyDroppedError(key))
                continue
            except BaseException as exc:
                self._answered(chat, chat_slot, glob, glob_slot)
                entry.settle(None, exc)
                raise
            self._answered(chat, chat_slot, glob, glob_slot)
            if text is not None:
                chat.recent[text] = self._now()
            entry.settle(result, None)
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- internals ---------------------------------------------------------------------------

    async def _take_slots(
        self, chat: _Gate, glob: _Gate, key: ChatKey, entry: _Waiter, limited: bool
    ) -> tuple[_Slot | None, _Slot]:
        """Wait for the chat's turn and budget, then the global one; reserve both slots."""
        started = self._now()
        try:
            delayed = await self._wait_turn(chat, key, entry)
            chat_slot = chat.window.reserve() if limited else None
            async with glob.lock:
                delayed |= await _wait_gate(glob, self._now)
                glob_slot = glob.window.reserve()
        except BaseException as exc:
            entry.settle(None, exc)
            raise
        if delayed:
            waited = self._now() - started
            for counters in (chat.counters, self._totals):
                counters.delayed += 1
                counters.waited += waited
        return chat_slot, glob_slot

    def _shed_or_share(
        self, chat: _Gate, key: ChatKey, priority: Priority, text: str | None
    ) -> asyncio.Future[JSONResult] | None:
        """Before a request joins a chat's queue: drop or coalesce a repeated text when the
        chat is over budget (None: the request goes on and queues)."""
        now = self._now()
        if not chat.queue and chat.ready_in(now) <= 0:
            chat.dropping = False  # within budget again: a next flood is logged anew
            return None
        if text is None:
            return None
        for waiter in chat.queue:
            if waiter.text == text and not waiter.dropped:
                follower: asyncio.Future[JSONResult] = asyncio.get_running_loop().create_future()
                waiter.followers.append(follower)
                chat.counters.coalesced += 1
                self._totals.coalesced += 1
                return follower
        horizon = now - chat.window.period
        chat.recent = {t: at for t, at in chat.recent.items() if at > horizon}
        if text in chat.recent:
            self._dropped(chat, key)
            raise ReplyDroppedError(key)
        return None

    async def _wait_turn(self, chat: _Gate, key: ChatKey, entry: _Waiter) -> bool:
        """Queue in the chat's line until first and within budget; True if it had to wait.

        A full line sheds its least important, oldest request (perhaps this one), which
        leaves with :class:`ReplyDroppedError`.
        """
        if len(chat.queue) >= MAX_WAITING:
            victim = min([*chat.queue, entry], key=lambda w: w.priority)
            self._dropped(chat, key)
            if victim is entry:
                raise ReplyDroppedError(key)
            victim.dropped = True
            chat.queue.remove(victim)
            victim.settle(None, ReplyDroppedError(key))
            chat.notify()
        chat.queue.append(entry)
        waited = False
        try:
            while True:
                if entry.dropped:
                    raise ReplyDroppedError(key)
                delay = 1.0  # not first: woken when the line moves
                if chat.queue[0] is entry:
                    delay = chat.ready_in(self._now())
                    if delay <= 0:
                        return waited
                waited = True
                await _sleep_or_change(delay, [chat.changed])
        finally:
            if entry in chat.queue:
                chat.queue.remove(entry)
                chat.notify()

    def _dropped(self, chat: _Gate, key: ChatKey) -> None:
        chat.counters.dropped += 1
        self._totals.dropped += 1
        if not chat.dropping:
            chat.dropping = True
            log.info("chat %s is flooded: replies over its budget are shed", key)

    async def _unthrottled(
        self, callback: Callback, args: Any, kwargs: dict[str, Any], max_retries: int
    ) -> JSONResult:
        """A request without a chat: not throttled, but held by (and causing) a global pause."""
        glob = self._global_gate()
        for attempt in range(max_retries + 1):
            while (delay := glob.paused_until - self._now()) > 0:
                await _sleep_or_change(delay, [glob.changed])
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                self._pause(glob, exc, None)
                if attempt >= max_retries:
                    raise
                continue
            self._totals.sent += 1
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _answered(
        self, chat: _Gate, chat_slot: _Slot | None, glob: _Gate, glob_slot: _Slot
    ) -> None:
        now = self._now()
        if chat_slot is not None:
            chat_slot.at = now
        glob_slot.at = now
        chat.counters.sent += 1
        self._totals.sent += 1
        chat.notify()
        glob.notify()

    def _pause(self, gate: _Gate, exc: RetryAfter, key: ChatKey | None) -> None:
        seconds = retry_seconds(exc)
        until = self._now() + seconds + RETRY_MARGIN
        gate.paused_until = max(gate.paused_until, until)
        if gate is not self._global:
            gate.counters.retry_after += 1
        self._totals.retry_after += 1
        gate.notify()
        log.info("429 for %s: paused for %.1f s", "the bot" if key is None else key, seconds)

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    @staticmethod
    def _chat_key(chat_id: Any) -> ChatKey:
        with contextlib.suppress(TypeError, ValueError):
            return int(chat_id)
        return str(chat_id)

    def _global_gate(self) -> _Gate:
        if self._global is None:
            self._global = _Gate(_Window(*self._overall_window))
        return self._global

    def _chat_gate(self, key: ChatKey) -> _Gate:
        gate = self._chats.get(key)
        if gate is None:
            if len(self._chats) >= _SWEEP_THRESHOLD:
                now = self._now()
                self._chats = {k: g for k, g in self._chats.items() if not g.idle(now)}
            # Negative ids and @usernames are groups, supergroups or channels; other strings
            # are inline messages, which everyone in their chat sees change.
            group = isinstance(key, str) or key < 0
            count, period = self._group_budget if group else self._private_budget
            if key in self._unbudgeted:
                count = 0
            gate = self._chats[key] = _Gate(_Window(count, period))
        return gate


def retry_seconds(exc: RetryAfter) -> float:
    """The pause a 429 asks for, in seconds.

    PTB 22 stores a timedelta and its public ``retry_after`` warns of a type change on every
    read; PTB's own limiter reads the stored value too.
    """
    delta = getattr(exc, "_retry_after", None)
    if isinstance(delta, dt.timedelta):
        return delta.total_seconds()
    value = exc.retry_after
    return value.total_seconds() if isinstance(value, dt.timedelta) else float(value)


async def _wait_gate(gate: _Gate, now: Callable[[], float]) -> bool:
    """Wait until the gate has budget and no pause; True if it had to wait at all."""
    waited = False
    while (delay := gate.ready_in(now())) > 0:
        waited = True
        await _sleep_or_change(delay, [gate.changed])
    return waited


async def _sleep_or_change(delay: float, events: list[asyncio.Event]) -> None:
    """Sleep ``delay`` seconds, or less if one of ``events`` fires (a slot freed, a pause)."""
    if math.isinf(delay):
        delay = 1.0
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
