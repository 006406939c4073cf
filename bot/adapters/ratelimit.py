"""A Bot API rate limiter whose budgets every worker shares, pausing each chat on its own.

Why not PTB's ``AIORateLimiter``: on a 429 it pauses every request of the whole bot, so one
flooded group freezes every other game; it counts per process, while Telegram counts per bot
token, whatever the number of workers; and it offers no way to ask "could I send to this chat
now?", which a board painter needs to wait for the budget *before* it picks the newest state
to draw (so throttled edits coalesce instead of queueing stale boards).

The model, after Telegram's documented limits, kept in Redis (``storage.budgets``: one script,
one round trip per request, shared by every worker of the token):

- a global budget (30 requests per any second) for requests that carry a ``chat_id``;
- a budget per chat: groups, supergroups and channels (negative ids, ``@names``) 20 per any
  60 s; private chats about one per second with short bursts tolerated (a token bucket: a
  burst of 3, refilled at one a second), one request in flight at a time; an inline message
  (edited by ``inline_message_id``) counts as a chat of its own with a group's budget; the
  chats named by ``unbudget`` (the operator's channel where inline boards are uploaded) have
  no budget of their own, only the global one;
- a 429 (:class:`telegram.error.RetryAfter`) for a chat pauses that chat only, for every
  worker; a 429 for a request without a chat pauses the global budget;
- ``answerCallbackQuery`` is not limited by Telegram and must arrive within seconds, so it
  is never throttled nor held by anybody's pause; neither are other requests without a chat
  (``getMe``, ``setMyCommands``...) throttled, though they respect a global pause.

A chat over its budget keeps a short queue of its own in each process (``MAX_WAITING``
requests, in arrival order) and sheds what matters least when a flood fills it, by priority
(:class:`Priority`): a board first, then answers (messages with buttons, edited texts), then
chatter (plain texts). A plain text that repeats one the chat was just sent is dropped at
once while the chat is over budget, and one that repeats a text still waiting shares that
request's answer (coalesced). A dropped request raises :class:`ReplyDroppedError` to its
caller; the first drop of a flood is logged, not every one. Only the first of a chat's queue
asks Redis for the budget; what a process last heard of a chat's budget (``ready_in``) is a
lower bound of the wait, so it waits that long before asking again.

A request is dated by its answer (settled in Redis once answered, a second short script), so
the next one, checked before it is sent, reaches Telegram a full budget after it whatever the
latency; no safety margin is needed. Without Redis (an outage), requests go out unthrottled
rather than not at all; Telegram's 429s still pause the chat in this process.
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

from storage.budgets import Budget, ChatKind, SharedBudgets, Verdict
from storage.connect import Client
from storage.errors import StorageError

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
#: Telegram's budgets: the whole bot, one group (edits included), one private chat (a burst of
#: 3 refilled at one a second).
OVERALL_BUDGET = Budget(30, 1.0)
GROUP_BUDGET = Budget(20, 60.0)
PRIVATE_BUDGET = Budget(3, 3.0)
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


class _Gate:
    """What this process knows of one chat: its queue (so that a flood can shed the least
    important requests), the plain texts lately sent (``recent``), when its budget or pause
    lets a request go at the earliest (``ready_at``, loop time, a lower bound), and an event
    for "something changed" (a request answered, a place freed)."""

    __slots__ = ("changed", "counters", "dropping", "paused_until", "queue", "ready_at", "recent")

    def __init__(self) -> None:
        self.ready_at = 0.0  # as the shared budgets last said
        self.paused_until = 0.0  # a 429 this process received
        self.changed = asyncio.Event()
        self.counters = LimiterCounters()
        self.queue: deque[_Waiter] = deque()
        self.recent: dict[str, float] = {}
        self.dropping = False

    def ready_in(self, now: float) -> float:
        return max(self.ready_at - now, self.paused_until - now, 0.0)

    def notify(self) -> None:
        event, self.changed = self.changed, asyncio.Event()
        event.set()

    def idle(self, now: float) -> bool:
        return self.ready_in(now) <= 0 and not self.queue


class ChatRateLimiter(BaseRateLimiter[int]):
    """Throttles per chat and globally, with every worker of the token (budgets in Redis);
    a 429 pauses only the chat it concerns.

    ``budgets`` are the token's shared budgets (the global one included); ``group`` and
    ``private`` the budgets of one chat. ``rate_limit_args``, when given to a bot method, is
    the number of retries after a 429 for that call (as with ``AIORateLimiter``). All budgets
    are parameters so tests can use small ones; a count of 0 disables that budget.
    """

    def __init__(
        self,
        budgets: SharedBudgets,
        *,
        group: Budget = GROUP_BUDGET,
        private: Budget = PRIVATE_BUDGET,
        max_retries: int = 2,
    ) -> None:
        self._budgets = budgets
        self._unbudgeted: set[ChatKey] = set()
        self._group_budget = group
        self._private_budget = private
        self._max_retries = max_retries
        self._chats: dict[ChatKey, _Gate] = {}
        self._overall_ready_at = 0.0  # as the shared budgets last said
        self._overall_paused_until = 0.0  # a 429 without a chat, received by this process
        self._changed: asyncio.Event | None = None  # created on the running loop
        self._totals = LimiterCounters()
        self._storage_down = False

    async def initialize(self) -> None:
        """Nothing to open: the budgets live in the storage's Redis."""

    async def shutdown(self) -> None:
        """Forget what this process knew of the budgets (they stay in Redis)."""
        self._chats.clear()
        self._overall_ready_at = self._overall_paused_until = 0.0
        self._changed = None

    def unbudget(self, chat_id: int | str) -> None:
        """Give a chat no budget of its own (the global one still applies): the operator's
        media chat, where inline boards are uploaded and nobody reads along."""
        self._unbudgeted.add(self._chat_key(chat_id))

    # -- public queries ----------------------------------------------------------------------

    def ready_in(self, chat_id: int | str) -> float:
        """Seconds until a request to ``chat_id`` may go out, as far as this process last
        heard (0.0: as far as it knows, right now).

        Counts the chat's budget and pause and the global budget and pause, as the last
        answer of the shared budgets told them (other workers may have used the budget since:
        the figure is a lower bound); it consumes nothing and asks nobody.
        """
        now = self._now()
        chat = self._chats.get(self._chat_key(chat_id))
        chat_wait = chat.ready_in(now) if chat is not None else 0.0
        overall = max(self._overall_ready_at, self._overall_paused_until) - now
        return max(chat_wait, overall, 0.0)

    async def wait_ready(self, chat_id: int | str) -> None:
        """Return once a request to ``chat_id`` would be sent at once, as far as this
        process last heard (:meth:`ready_in`); consumes no budget and asks nobody.

        A painter waits here first and only then picks the newest state to draw, so several
        changes made meanwhile cost one edit. What this process heard is the whole truth
        when it sends alone, and a lower bound of the wait when other workers send too; the
        shared budgets are asked once, by the request itself, which waits in
        :meth:`process_request` if another task or worker took the place meanwhile. (Asking
        here as well cost a round trip per board for what the request's own take tells.)
        """
        key = self._chat_key(chat_id)
        while (delay := self.ready_in(key)) > 0:
            await _sleep_or_change(delay, self._events(key))

    def counters(self, chat_id: int | str | None = None) -> LimiterCounters:
        """A copy of the counters of one chat (zeros if unknown), or the totals when None.

        A chat's counters are forgotten when its idle state is dropped (only once more than a
        thousand chats are known); the totals are kept for the limiter's lifetime. They count
        this process's requests only.
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
        kind, budget = self._budget_of(key, limited)
        for attempt in range(max_retries + 1):
            chat = self._chat_gate(key)
            shared = self._shed_or_share(chat, key, priority, text)
            if shared is not None:
                return await shared
            entry = _Waiter(priority, text)
            request_id = await self._take_turn(chat, key, entry, kind, budget)
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                await self._refused(chat, exc, key, request_id, kind, budget)
                if attempt >= max_retries:
                    entry.settle(None, exc)
                    raise
                entry.settle(None, ReplyDroppedError(key))
                continue
            except BaseException as exc:
                # Perhaps received by Telegram all the same (a timeout): it keeps its place.
                if request_id is not None:
                    await asyncio.shield(self._settle(request_id, key, kind, budget, True))
                entry.settle(None, exc)
                raise
            if request_id is not None:
                await self._settle(request_id, key, kind, budget, True)
            chat.counters.sent += 1
            self._totals.sent += 1
            if text is not None:
                chat.recent[text] = self._now()
            entry.settle(result, None)
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- internals ---------------------------------------------------------------------------

    def _budget_of(self, key: ChatKey, limited: bool) -> tuple[ChatKind, Budget]:
        """Which budget a request to ``key`` uses: negative ids and @usernames are groups,
        supergroups or channels; other strings are inline messages, which everyone in their
        chat sees change (a group's budget); positive ids are private chats."""
        if not limited or key in self._unbudgeted:
            return ChatKind.NONE, Budget(0, 1.0)
        if isinstance(key, str) or key < 0:
            budget, kind = self._group_budget, ChatKind.WINDOW
        else:
            budget, kind = self._private_budget, ChatKind.BUCKET
        return (kind, budget) if budget.count > 0 else (ChatKind.NONE, budget)

    async def _ask(
        self,
        request_id: str | None,
        key: ChatKey | None,
        kind: ChatKind,
        budget: Budget,
        *,
        consume: bool = True,
        count_overall: bool = True,
    ) -> Verdict | None:
        """The shared budgets' verdict, remembered as a lower bound of later waits; None when
        Redis cannot answer (the request then goes out unthrottled)."""
        try:
            verdict = await self._budgets.take(
                request_id or "",
                key,
                kind,
                budget,
                consume=consume and request_id is not None,
                count_overall=count_overall,
            )
        except StorageError as exc:
            if not self._storage_down:
                self._storage_down = True
                log.warning("budgets unavailable, requests go out unthrottled: %s", exc)
            return None
        self._storage_down = False
        self._learn(key, verdict)
        return verdict

    def _learn(self, key: ChatKey | None, verdict: Verdict) -> None:
        """Remember the budgets' latest word: what a later request waits for at least."""
        now = self._now()
        if key is not None:
            self._chat_gate(key).ready_at = now + verdict.chat_wait
        self._overall_ready_at = now + (verdict.wait if verdict.wait > verdict.chat_wait else 0)

    async def _take_turn(
        self, chat: _Gate, key: ChatKey, entry: _Waiter, kind: ChatKind, budget: Budget
    ) -> str | None:
        """Queue in the chat's line until first, then take the budgets; the request's id in
        the shared budgets (None: unthrottled, Redis being out).

        A full line sheds its least important, oldest request (perhaps this one), which
        leaves with :class:`ReplyDroppedError`.
        """
        started = self._now()
        self._join_queue(chat, key, entry)
        waited = False
        request_id: str | None = SharedBudgets.new_request_id()
        try:
            while True:
                if entry.dropped:
                    raise ReplyDroppedError(key)
                delay = 1.0  # not first: woken when the line moves
                if chat.queue[0] is entry:
                    delay = self.ready_in(key)
                    if delay <= 0:
                        verdict = await self._ask(request_id, key, kind, budget)
                        if verdict is None:
                            request_id = None  # Redis is out: unthrottled
                            break
                        if verdict.taken:
                            break
                        delay = verdict.wait
                waited = True
                await _sleep_or_change(delay, self._events(key))
        except BaseException as exc:
            entry.settle(None, exc)
            raise
        finally:
            if entry in chat.queue:
                chat.queue.remove(entry)
                chat.notify()
        if waited:
            waited_for = self._now() - started
            for counters in (chat.counters, self._totals):
                counters.delayed += 1
                counters.waited += waited_for
        return request_id

    def _join_queue(self, chat: _Gate, key: ChatKey, entry: _Waiter) -> None:
        """Queue ``entry``; a full line first sheds its least important, oldest request."""
        if len(chat.queue) >= MAX_WAITING:
            victim = min([*chat.queue, entry], key=lambda w: w.priority)
            self._dropped(chat, key)
            if victim is entry:
                entry.settle(None, ReplyDroppedError(key))
                raise ReplyDroppedError(key)
            victim.dropped = True
            chat.queue.remove(victim)
            victim.settle(None, ReplyDroppedError(key))
            chat.notify()
        chat.queue.append(entry)

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
        kind, budget = self._budget_of(key, limited=True)
        horizon = now - (budget.period if kind is not ChatKind.NONE else 0.0)
        chat.recent = {t: at for t, at in chat.recent.items() if at > horizon}
        if text in chat.recent:
            self._dropped(chat, key)
            raise ReplyDroppedError(key)
        return None

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
        nothing = Budget(0, 1.0)
        for attempt in range(max_retries + 1):
            while True:
                delay = self._overall_paused_until - self._now()
                if delay <= 0:
                    verdict = await self._ask(
                        None, None, ChatKind.NONE, nothing, consume=False, count_overall=False
                    )
                    if verdict is None or verdict.wait <= 0:
                        break
                    delay = verdict.wait
                await _sleep_or_change(delay, self._events(None))
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                pause = self._pause(None, exc, None)
                with contextlib.suppress(StorageError):
                    await self._budgets.settle(
                        "", None, ChatKind.NONE, nothing, answered=False, overall_pause=pause
                    )
                if attempt >= max_retries:
                    raise
                continue
            self._totals.sent += 1
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _settle(
        self,
        request_id: str,
        key: ChatKey,
        kind: ChatKind,
        budget: Budget,
        answered: bool,
        pause: float = 0.0,
    ) -> None:
        """Date an answered request in the shared budgets (or give a refused one's place
        back and pause its chat for every worker); then wake this process's waiters."""
        try:
            verdict = await self._budgets.settle(
                request_id, key, kind, budget, answered=answered, chat_pause=pause
            )
        except StorageError as exc:
            log.info("could not settle a request in the budgets: %s", exc)
        else:
            self._learn(key, verdict)
        finally:
            gate = self._chats.get(key)
            if gate is not None:
                gate.notify()
            self._notify()

    async def _refused(
        self,
        chat: _Gate,
        exc: RetryAfter,
        key: ChatKey,
        request_id: str | None,
        kind: ChatKind,
        budget: Budget,
    ) -> None:
        """A 429: pause the chat here and, before any retry, for every worker."""
        pause = self._pause(chat, exc, key)
        if request_id is not None:
            await self._settle(request_id, key, kind, budget, False, pause)

    def _pause(self, chat: _Gate | None, exc: RetryAfter, key: ChatKey | None) -> float:
        """Pause the chat (or, without one, the bot) in this process; the seconds paused."""
        seconds = retry_seconds(exc)
        pause = seconds + RETRY_MARGIN
        until = self._now() + pause
        if chat is None:
            self._overall_paused_until = max(self._overall_paused_until, until)
        else:
            chat.paused_until = max(chat.paused_until, until)
            chat.counters.retry_after += 1
            chat.notify()
        self._totals.retry_after += 1
        self._notify()
        log.info("429 for %s: paused for %.1f s", "the bot" if key is None else key, seconds)
        return pause

    def _events(self, key: ChatKey | None) -> list[asyncio.Event]:
        if self._changed is None:
            self._changed = asyncio.Event()
        events = [self._changed]
        gate = self._chats.get(key) if key is not None else None
        if gate is not None:
            events.append(gate.changed)
        return events

    def _notify(self) -> None:
        if self._changed is not None:
            event, self._changed = self._changed, asyncio.Event()
            event.set()

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    @staticmethod
    def _chat_key(chat_id: Any) -> ChatKey:
        with contextlib.suppress(TypeError, ValueError):
            return int(chat_id)
        return str(chat_id)

    def _chat_gate(self, key: ChatKey) -> _Gate:
        gate = self._chats.get(key)
        if gate is None:
            if len(self._chats) >= _SWEEP_THRESHOLD:
                now = self._now()
                self._chats = {k: g for k, g in self._chats.items() if not g.idle(now)}
            gate = self._chats[key] = _Gate()
        return gate


def for_token(
    client: Client,
    prefix: str,
    token: str,
    *,
    overall: Budget = OVERALL_BUDGET,
    group: Budget = GROUP_BUDGET,
    private: Budget = PRIVATE_BUDGET,
) -> ChatRateLimiter:
    """The limiter of a bot token, its budgets in the storage's Redis (``client``, key
    namespace ``prefix``) and shared with every worker of the same token (the bot's id, the
    token's first part, names them)."""
    bot_id = int(token.split(":", 1)[0])
    budgets = SharedBudgets(client, prefix, bot_id, overall=overall)
    return ChatRateLimiter(budgets, group=group, private=private)


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
