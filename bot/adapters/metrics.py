"""What an operator watches: Prometheus metrics (served at ``/metrics`` by bot.web) and the
moment Telegram last answered (for ``/readyz``).

The metrics live in prometheus-client's default registry, beside its process metrics (CPU,
memory, open files). Each is fed where the event happens, by a call of a line or two: the
update queue (updates received, the moment a button press arrived), the HTTP client (every
Bot API request and its status, the answer to a press), the computer's pool (decision time),
the storage's error hook. The games in progress are counted in Redis when scraped, at most
every :data:`GAMES_COUNT_SECONDS`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any, Protocol

from prometheus_client import Counter, Gauge, Histogram
from telegram import Update

UPDATES = Counter("tavola_updates", "Updates received from Telegram, by type.", ["type"])
ANSWER_LATENCY = Histogram(
    "tavola_answer_latency_seconds",
    "From a button press's arrival to the bot's answerCallbackQuery.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
)
BOT_API_REQUESTS = Counter(
    "tavola_bot_api_requests",
    "Bot API requests by method and HTTP status (error: no answer, a network error).",
    ["method", "status"],
)
BOT_API_THROTTLED = Counter(
    "tavola_bot_api_throttled",
    "Bot API requests refused with 429 Too Many Requests, by method.",
    ["method"],
)
PAINTER_BACKLOG = Gauge(
    "tavola_painter_backlog", "Chats whose board is waiting to be drawn or being drawn."
)
DECISION_SECONDS = Histogram(
    "tavola_computer_decision_seconds",
    "Wall time of one computer decision (its fallbacks included), by level.",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
)
GAMES_ACTIVE = Gauge("tavola_games_active", "Games in progress (counted in storage).")
WORKERS_REPLACED = Gauge(
    "tavola_workers_replaced",
    "Worker processes replaced since the bot started (one died or was stuck), by pool.",
    ["pool"],
)
BOARDS_IN_THREAD = Gauge(
    "tavola_boards_drawn_in_thread",
    "Boards drawn in the bot's own process since it started (no drawer process was ready).",
)
REDIS_ERRORS = Counter(
    "tavola_redis_errors", "Storage calls that failed (Redis unreachable, too slow or in error)."
)

#: How often, at most, the games in progress are counted (a SCAN of their keys).
GAMES_COUNT_SECONDS = 30.0
#: Button presses whose arrival time is kept until they are answered (the oldest are
#: forgotten first: a press never answered must not grow the memory).
PENDING_PRESSES = 10_000


class Replacing(Protocol):
    """A pool of worker processes that counts the workers it replaced."""

    @property
    def replaced(self) -> int: ...


def pools_seen(pools: dict[str, Replacing | None], in_thread: int) -> None:
    """The worker pools' counts, read when scraped (the pools run where no metric is fed:
    the drawer's module is preloaded by the fork server, which must not carry the client).
    A pool that is off (None) reads zero."""
    for name, pool in pools.items():
        WORKERS_REPLACED.labels(name).set(0 if pool is None else pool.replaced)
    BOARDS_IN_THREAD.set(in_thread)


def _update_type(update: Update) -> str:
    for kind in Update.ALL_TYPES:
        if getattr(update, kind, None) is not None:
            return str(kind)
    return "unknown"


class _Presses:
    """When each pending button press arrived, until its answerCallbackQuery."""

    def __init__(self) -> None:
        self._arrived: OrderedDict[str, float] = OrderedDict()

    def arrived(self, query_id: str) -> None:
        self._arrived[query_id] = time.monotonic()
        if len(self._arrived) > PENDING_PRESSES:
            self._arrived.popitem(last=False)

    def answered(self, query_id: str) -> None:
        start = self._arrived.pop(query_id, None)
        if start is not None:
            ANSWER_LATENCY.observe(time.monotonic() - start)


class _Telegram:
    """When the Bot API last answered a request of this process (any status: it answered)."""

    def __init__(self) -> None:
        self.last_answer: float | None = None

    def answered(self) -> None:
        self.last_answer = time.monotonic()

    def silent_for(self) -> float | None:
        """Seconds since the last answer; None if it never answered."""
        return None if self.last_answer is None else time.monotonic() - self.last_answer


PRESSES = _Presses()
TELEGRAM = _Telegram()


class ReceivingQueue(asyncio.Queue[object]):
    """The application's update queue (both the polling and the webhook put updates here):
    counts the updates by type and notes when each button press arrived."""

    def put_nowait(self, item: object) -> None:
        if isinstance(item, Update):
            UPDATES.labels(_update_type(item)).inc()
            if item.callback_query is not None:
                PRESSES.arrived(item.callback_query.id)
        super().put_nowait(item)


def bot_api_answered(url: str, code: int, parameters: dict[str, Any] | None) -> None:
    """A Bot API request got an HTTP answer (bot.reach's client calls this)."""
    method = url.rsplit("/", 1)[-1]
    TELEGRAM.answered()
    BOT_API_REQUESTS.labels(method, str(code)).inc()
    if code == 429:
        BOT_API_THROTTLED.labels(method).inc()
    if method == "answerCallbackQuery" and parameters:
        PRESSES.answered(str(parameters.get("callback_query_id")))


def bot_api_failed(url: str) -> None:
    """A Bot API request got no answer (network error, timeout)."""
    BOT_API_REQUESTS.labels(url.rsplit("/", 1)[-1], "error").inc()


def redis_error(exc: BaseException) -> None:
    """The storage's error hook."""
    del exc
    REDIS_ERRORS.inc()
