"""The Mini App's test set-up: the bot with its web server, and Telegram's launch data.

``MiniAppBot`` is the e2e suite's ``BotUnderTest`` with the Mini App on (an HTTPS address,
as production requires) and the bot's own web server listening on a free local port, where
the tests' browser and HTTP client reach ``/app/``. ``launch_data`` signs a user's launch
string as Telegram does, with the fake server's bot token.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.app import web_routes
from bot.game.table import Table
from bot.miniapp import init_data
from bot.miniapp.live import LiveHub
from bot.miniapp.view import table_id
from bot.services import of_app
from bot.web import WebServer
from tests.ports import free_port

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeUser

PUBLIC_URL = "https://tavola.example.org/app/"
APP_NAME = "tavolo"


def launch_data(
    token: str,
    user: FakeUser,
    *,
    start_param: str | None = None,
    auth_date: float | None = None,
    forge: bool = False,
) -> str:
    """A launch string as Telegram signs it (``forge``: signed with another token)."""
    fields = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAH" + str(user.id),
        "user": json.dumps(user.to_dict(), separators=(",", ":"), ensure_ascii=False),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    fields["hash"] = init_data.sign(fields, "999:forged" if forge else token)
    return urlencode(fields)


class MiniAppBot(BotUnderTest):
    """The bot with the Mini App on and its web server on ``self.port``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = replace(self.settings, miniapp_url=PUBLIC_URL, miniapp_name=APP_NAME)
        self.port = free_port()
        self.server: WebServer | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/app/"

    async def start(self) -> Any:
        app = await super().start()
        self.server = WebServer(app, extra_routes=web_routes(app))
        self.server.start("127.0.0.1", self.port)
        return app

    async def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            await server.stop()
        if self.app is not None:
            # The application's stop hook (run by `python -m bot`, not by the tests' stop)
            # ends the live listener.
            live = of_app(self.app).live
            if isinstance(live, LiveHub):
                await live.stop()
        await super().stop()

    def init(self, user: FakeUser, **kwargs: Any) -> str:
        return launch_data(self.tg.token, user, **kwargs)

    async def api(
        self,
        user: FakeUser | str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """One call of the page's API as ``user`` (or with a raw launch string)."""
        raw = user if isinstance(user, str) else self.init(user)
        headers = {"X-Telegram-Init-Data": raw}
        async with aiohttp.ClientSession() as session:
            if body is None:
                async with session.get(self.base + path, headers=headers) as r:
                    return r.status, await r.json()
            async with session.post(self.base + path, headers=headers, json=body) as r:
                return r.status, await r.json()


def home_stretch(table: Table) -> Table:
    """The same game with four checkers left at home for each side (one on each of the
    points 1 to 4, the rest borne off): a few turns from its end, in the turn it was in."""
    s = table.state
    side = (11, 1, 1, 1, 1, *([0] * 21))
    both = (side, side)
    state = replace(
        s,
        game_part=s.game_part.with_checkers(both),
        turn_part=replace(s.turn_part, steps=(), turn_start=both),
    )
    return replace(table, state=state, record=None)


async def server_state(
    mini: MiniAppBot, user: FakeUser, chat: FakeChat, game: int | None = None
) -> dict[str, Any]:
    """The table as the server describes it to ``user`` (the game ``game`` once archived)."""
    hint = "" if game is None else f"&game={game}"
    status, body = await mini.api(user, f"api/state?table={table_id(chat.id)}{hint}")
    assert status == 200, body
    return dict(body["state"])
