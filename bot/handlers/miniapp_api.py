"""The Mini App's routes on the bot's own tornado server, under ``/app/``.

- ``GET /app/``: the page (``static/index.html``, its script and style beside it).
- ``GET /app/api/texts``: the page's Italian texts, from the bot's catalogue.
- ``GET /app/api/state?table=``: the table as the viewer sees it (``view.describe``).
- ``POST /app/api/act``: an action of a player (``actions.PageActions``), answered once saved.
- ``GET /app/api/live?table=&init=``: server-sent events, the table after every commit.
- ``GET /app/api/moves?table=``: the move list.

Every API call carries Telegram's signed launch data (the ``X-Telegram-Init-Data`` header;
for the event stream, which cannot send headers, the ``init`` parameter), validated with the
bot's token: a missing, forged or stale one is refused (401) before anything is read. Each
user's calls are rate limited (429).
"""

from __future__ import annotations

import json
import logging
import time
from collections import OrderedDict
from dataclasses import fields
from http import HTTPStatus
from pathlib import Path
from typing import Any

import tornado.web
from tornado.iostream import StreamClosedError

from bot import pipeline
from bot.adapters.ptb_types import BotApp
from bot.game.table import Table
from bot.handlers.miniapp_actions import PAGE_ACTIONS, PageActions, Request
from bot.miniapp import init_data, view
from bot.miniapp.live import LiveHub
from bot.services import of_app
from bot.texts import messages as T
from bot.texts import miniapp as TEXTS
from engine import EngineError
from render.theme import DEFAULT_THEME, get_theme
from storage import CorruptGameError, NewerGameError

log = logging.getLogger(__name__)

#: The page: one HTML file, its script and its style, no build step.
STATIC = Path(__file__).resolve().parent.parent / "miniapp" / "static"
INIT_HEADER = "X-Telegram-Init-Data"
#: A page asks again this often even if no commit was heard of (a lost pub/sub message).
READ_AGAIN_SECONDS = 15.0
#: Per user: a burst of this many calls, refilled at ``RATE_PER_SECOND``.
RATE_BURST = 60
RATE_PER_SECOND = 10.0
RATE_USERS = 10_000  # users remembered by the limiter (the least recent are forgotten)
MOVES_SECONDS = 10.0
#: The page loads scripts only from here and Telegram's own (telegram-web-app.js).
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'"
)


class RateLimit:
    """A token bucket per user, in this process."""

    def __init__(self, burst: int = RATE_BURST, per_second: float = RATE_PER_SECOND) -> None:
        self.burst = burst
        self.per_second = per_second
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()

    def allow(self, user_id: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.pop(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > RATE_USERS:
            self._buckets.popitem(last=False)
        return allowed


class MiniApp:
    """What the routes share: the bot, its token, the live hub, the limiter."""

    def __init__(self, app: BotApp, live: LiveHub) -> None:
        self.app = app
        self.live = live
        self.actions = PageActions(app)
        self.limit = RateLimit()

    @property
    def token(self) -> str:
        return of_app(self.app).settings.token


class _Api(tornado.web.RequestHandler):
    def initialize(self, mini: MiniApp) -> None:
        self.mini = mini

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")

    def reply(self, status: int, body: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(body, ensure_ascii=False))

    def refuse(self, status: int, reason: str) -> None:
        self.reply(status, {"ok": False, "reason": reason})

    def user(self, raw: str | None = None) -> init_data.WebAppUser | None:
        """The signed user of this call, or None after refusing it."""
        raw = self.request.headers.get(INIT_HEADER, "") if raw is None else raw
        try:
            user = init_data.validate(raw, self.mini.token)
        except init_data.InitDataError as exc:
            log.info("mini app call refused: %s", exc)
            self.refuse(HTTPStatus.UNAUTHORIZED, TEXTS.REFUSED_SIGNATURE)
            return None
        if not self.mini.limit.allow(user.id):
            self.refuse(HTTPStatus.TOO_MANY_REQUESTS, TEXTS.TOO_FAST)
            return None
        return user

    def table_key(self, raw: str | None) -> int | None:
        key = None if raw is None else view.table_key(raw)
        if key is None:
            self.refuse(HTTPStatus.BAD_REQUEST, TEXTS.NO_TABLE)
        return key

    def asker_and_table(
        self, raw_init: str | None = None
    ) -> tuple[init_data.WebAppUser, int] | None:
        """The signed user of a read (GET) and the table its ``table`` argument names, or
        None after refusing the call."""
        user = self.user(raw_init)
        if user is None:
            return None
        key = self.table_key(self.get_query_argument("table", None))
        return None if key is None else (user, key)

    async def found(self, key: int, game: int | None) -> tuple[Table, view.Saved] | None:
        """The place's game, or when it has none any more, the game ``game`` as archived at
        its match's end; None when there is neither (or it cannot be read)."""
        svc = of_app(self.mini.app)
        try:
            loaded = await pipeline.load(svc, key)
            if loaded is not None:
                return loaded.table, loaded.stored
            finished = None if game is None else await svc.repo.load_finished_game(key, game)
            if finished is None:
                return None
            return Table.from_doc(finished.doc), finished
        except (CorruptGameError, NewerGameError, EngineError):
            return None

    async def described(
        self, key: int, user_id: int, game: int | None = None
    ) -> dict[str, Any] | None:
        """The table as ``user_id`` sees it (see ``found``)."""
        found = await self.found(key, game)
        if found is None:
            return None
        table, where = found
        return view.describe(table, where, table.index_of(user_id))

    def game_hint(self) -> int | None:
        raw = self.get_query_argument("game", "")
        return int(raw) if raw.isdigit() else None


class _Texts(_Api):
    def get(self) -> None:
        self.set_header("Cache-Control", "public, max-age=300")
        theme = get_theme(DEFAULT_THEME)
        colours = {f.name: list(getattr(theme, f.name)) for f in fields(theme) if f.name != "name"}
        self.reply(HTTPStatus.OK, {"texts": TEXTS.catalogue(), "theme": colours})


class _State(_Api):
    async def get(self) -> None:
        asked = self.asker_and_table()
        if asked is None:
            return
        user, key = asked
        state = await self.described(key, user.id, self.game_hint())
        if state is None:
            self.refuse(HTTPStatus.NOT_FOUND, TEXTS.NO_GAME)
            return
        self.reply(HTTPStatus.OK, {"ok": True, "state": state})


class _Act(_Api):
    async def post(self) -> None:
        user = self.user()
        if user is None:
            return
        try:
            body = json.loads(self.request.body)
            key = view.table_key(str(body["table"]))
            action = PAGE_ACTIONS[str(body["action"])]
            args = tuple(int(a) for a in body.get("args", ()))
            req = Request(int(body["game"]), int(body["version"]), action, args)
        except (ValueError, KeyError, TypeError):
            self.refuse(HTTPStatus.BAD_REQUEST, T.ALERT_STALE_BUTTON)
            return
        if key is None:
            self.refuse(HTTPStatus.BAD_REQUEST, TEXTS.NO_TABLE)
            return
        outcome = await self.mini.actions.act(key, user.id, req)
        state = await self.described(key, user.id, req.game)
        self.reply(outcome.status, {"ok": outcome.ok, "reason": outcome.reason, "state": state})


class _Moves(_Api):
    async def get(self) -> None:
        asked = self.asker_and_table()
        if asked is None:
            return
        _, key = asked
        found = await self.found(key, self.game_hint())
        if found is None:
            self.refuse(HTTPStatus.NOT_FOUND, TEXTS.NO_GAME)
            return
        table, where = found
        svc = of_app(self.mini.app)
        try:
            lines = await svc.computer.run(MOVES_SECONDS, view.moves_job, table.to_doc())
        except Exception:
            log.info("cannot list the moves of table %s", key, exc_info=True)
            lines = []
        self.reply(HTTPStatus.OK, {"ok": True, "version": where.version, "moves": lines})


class _Live(_Api):
    """Server-sent events: the table now, then again after each commit."""

    def initialize(self, mini: MiniApp) -> None:
        super().initialize(mini)
        self.closed = False

    def on_connection_close(self) -> None:
        self.closed = True
        watch = getattr(self, "_watch", None)
        if watch is not None:
            watch.wake(watch.version + 1)

    async def get(self) -> None:
        asked = self.asker_and_table(self.get_query_argument("init", ""))
        if asked is None:
            return
        user, key = asked
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        self.set_header("X-Accel-Buffering", "no")  # a proxy must not hold the events back
        watch = self._watch = self.mini.live.watch(key)
        sent: tuple[int, int] | None = None
        game = self.game_hint()
        try:
            while not self.closed:
                state = await self.described(key, user.id, game)
                version = (-1, -1) if state is None else (int(state["game"]), int(state["version"]))
                if state is not None:
                    game = int(state["game"])
                if version != sent:
                    payload = json.dumps({"state": state}, ensure_ascii=False)
                    self.write(f"event: state\ndata: {payload}\n\n")
                    sent = version
                else:
                    self.write(": still here\n\n")
                await self.flush()
                await watch.wait(READ_AGAIN_SECONDS)
        except StreamClosedError:
            pass
        finally:
            self.mini.live.unwatch(key, watch)
        if not self.closed:
            self.finish()


class _Page(tornado.web.StaticFileHandler):
    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", CSP)
        self.set_header("X-Content-Type-Options", "nosniff")

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")


def routes(app: BotApp, live: LiveHub) -> list[Any]:
    """The Mini App's routes, for the bot's web server."""
    mini = MiniApp(app, live)
    args = {"mini": mini}
    return [
        (r"/app/api/texts", _Texts, args),
        (r"/app/api/state", _State, args),
        (r"/app/api/act", _Act, args),
        (r"/app/api/live", _Live, args),
        (r"/app/api/moves", _Moves, args),
        (r"/app/(.*)", _Page, {"path": str(STATIC), "default_filename": "index.html"}),
    ]
