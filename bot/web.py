"""The bot's HTTP server: Telegram's webhook (webhook mode) beside ``/healthz``, ``/readyz``
and ``/metrics`` (both modes; in polling mode on its own small port).

PTB's built-in webhook server is a closed tornado application (no route can be added to it;
PTB's maintainers point to a custom webhook server fed through ``Application.update_queue``),
so the bot runs its own, with tornado, the server PTB itself uses. The webhook route does
what PTB's does: JSON only, the secret token required (compared in constant time), the
update put on the application's queue.

- ``GET /healthz``: 200 while the process serves (alive).
- ``GET /readyz``: 200 when Redis answers a PING and the Bot API answered within the last
  :data:`READY_SECONDS` (asked with ``getMe`` when nothing else called it meanwhile), else
  503 with a short JSON reason.
- ``GET /metrics``: Prometheus' text format (bot.adapters.metrics).
- ``/app/``: the Mini App (bot.handlers.miniapp_api), when TAVOLA_MINIAPP_URL is set: the
  entry point hands its routes in (``extra_routes``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import tornado.web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.exceptions import RedisError
from telegram import Update
from telegram.error import TelegramError
from tornado.httpserver import HTTPServer

from bot.adapters import metrics
from bot.adapters.ptb_types import BotApp
from bot.services import of_app

log = logging.getLogger(__name__)

#: The Bot API must have answered within this many seconds for the bot to be ready.
READY_SECONDS = 60.0
#: How long a readiness check waits for Redis, and for the Bot API when it asks it.
CHECK_TIMEOUT = 5.0
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass(frozen=True, slots=True)
class Webhook:
    """Where Telegram posts the updates, and the secret token it must send along."""

    path: str
    secret: str


class Checks:
    """What ``/readyz`` and ``/metrics`` ask of the running bot."""

    def __init__(self, app: BotApp) -> None:
        self.app = app
        self._probe = asyncio.Lock()
        self._games_counted_at: float | None = None

    async def problem(self) -> str | None:
        """Why the bot is not ready, in a few words; None when it is."""
        if not self.app.running:
            return "not running"
        repo = of_app(self.app).repo
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):
                await repo.client.ping()
        except (RedisError, TimeoutError, OSError) as exc:
            metrics.redis_error(exc)
            return f"redis: no answer ({type(exc).__name__})"
        silent = metrics.TELEGRAM.silent_for()
        if silent is None or silent > READY_SECONDS:
            async with self._probe:  # one probe for all the checks waiting
                silent = metrics.TELEGRAM.silent_for()
                if silent is None or silent > READY_SECONDS:
                    await self._ask_telegram()
            silent = metrics.TELEGRAM.silent_for()
            if silent is None or silent > READY_SECONDS:
                return "telegram: no answer from the Bot API"
        return None

    async def _ask_telegram(self) -> None:
        """``getMe``: any answer counts (bot.adapters.metrics notes it), even a refusal."""
        try:
            await self.app.bot.get_me(read_timeout=CHECK_TIMEOUT, connect_timeout=CHECK_TIMEOUT)
        except TelegramError as exc:
            log.info("readiness: the Bot API did not answer getMe: %s", exc)

    async def refresh_gauges(self) -> None:
        """The gauges computed when scraped: the painter's backlog, the worker pools'
        replacements, the games in progress (counted in storage at most every
        ``GAMES_COUNT_SECONDS``)."""
        svc = of_app(self.app)
        metrics.PAINTER_BACKLOG.set(svc.painter.backlog())
        metrics.pools_seen(
            {"computer": svc.computer, "analysis": svc.analyst, "drawer": svc.drawer},
            in_thread=0 if svc.drawer is None else svc.drawer.in_thread,
        )
        loop = asyncio.get_running_loop()
        counted = self._games_counted_at
        if counted is not None and loop.time() - counted < metrics.GAMES_COUNT_SECONDS:
            return
        self._games_counted_at = loop.time()
        try:
            metrics.GAMES_ACTIVE.set(await svc.repo.count_games())
        except Exception:  # a storage error is counted by its hook; the gauge stays
            log.info("cannot count the games in progress", exc_info=True)


class _Handler(tornado.web.RequestHandler):
    def initialize(self, checks: Checks) -> None:
        self.checks = checks

    def reply(self, status: HTTPStatus, body: dict[str, str]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))


class _Alive(_Handler):
    def get(self) -> None:
        self.reply(HTTPStatus.OK, {"status": "alive"})


class _Ready(_Handler):
    async def get(self) -> None:
        problem = await self.checks.problem()
        if problem is None:
            self.reply(HTTPStatus.OK, {"status": "ready"})
        else:
            self.reply(HTTPStatus.SERVICE_UNAVAILABLE, {"status": "not ready", "reason": problem})


class _Metrics(_Handler):
    async def get(self) -> None:
        await self.checks.refresh_gauges()
        self.set_header("Content-Type", CONTENT_TYPE_LATEST)
        self.finish(generate_latest())


class _Telegram(tornado.web.RequestHandler):
    """Telegram's POSTs: refused (403) without the JSON type or the secret token, 400 when
    the body is not an update; else 200 once the update is queued."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, app: BotApp, secret: str) -> None:
        self.app = app
        self.secret = secret

    async def post(self) -> None:
        if self.request.headers.get("Content-Type") != "application/json":
            raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN)
        sent = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(sent.encode(), self.secret.encode()):
            raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN, reason="Wrong secret token")
        try:
            update = Update.de_json(json.loads(self.request.body), self.app.bot)
        except Exception as exc:  # not JSON, or not an update
            log.warning("the webhook received something that is not an update: %s", exc)
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None
        self.app.bot.insert_callback_data(update)
        await self.app.update_queue.put(update)
        self.set_status(HTTPStatus.OK)
        self.finish()

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        """A refused call is not an error of the bot's (the default logs a traceback)."""
        log.debug("webhook call refused: %s", value)


def _no_access_log(handler: tornado.web.RequestHandler) -> None:
    """No line for each request: health checks come every few seconds."""


class WebServer:
    """The server of one bot process; :meth:`start` binds (an ``OSError`` when the port is
    taken), :meth:`stop` closes it."""

    def __init__(
        self, app: BotApp, webhook: Webhook | None = None, extra_routes: Sequence[Any] = ()
    ) -> None:
        checks = Checks(app)
        routes: list[Any] = [
            (r"/healthz", _Alive, {"checks": checks}),
            (r"/readyz", _Ready, {"checks": checks}),
            (r"/metrics", _Metrics, {"checks": checks}),
        ]
        if webhook is not None:
            routes.append((rf"{webhook.path}/?", _Telegram, {"app": app, "secret": webhook.secret}))
        routes.extend(extra_routes)
        self._server = HTTPServer(tornado.web.Application(routes, log_function=_no_access_log))

    def start(self, listen: str, port: int) -> None:
        self._server.listen(port, address=listen)

    async def stop(self) -> None:
        self._server.stop()
        await self._server.close_all_connections()
