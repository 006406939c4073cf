"""``/readyz`` follows Telegram: ready while the Bot API answers (asked with getMe when
nothing else called it lately), not ready with the reason once it stops answering; and a
taken health port ends the start with its one line."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
import pytest

from bot import web
from storage import GameRepository

from .conftest import BotUnderTest
from .fake_telegram import FakeTelegram
from .processes import free_port, start_bot

STALE_AFTER = 0.5  # seconds without an answer from the Bot API, for this test


async def _readyz(port: int) -> tuple[int, dict[str, str]]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/readyz") as answer,
    ):
        return answer.status, json.loads(await answer.text())


async def test_not_ready_once_the_bot_api_stops_answering(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "READY_SECONDS", STALE_AFTER)
    tg = FakeTelegram()
    await tg.start()
    bot = BotUnderTest(tg, repo)
    app = await bot.start()
    server = web.WebServer(app)
    port = free_port()
    server.start("127.0.0.1", port)
    try:
        await asyncio.sleep(STALE_AFTER * 2)  # long polls answer only now and then
        assert await _readyz(port) == (200, {"status": "ready"})  # a poll or getMe answered

        await tg.stop()  # Telegram unreachable
        await asyncio.sleep(STALE_AFTER * 2)
        status, body = await _readyz(port)
        assert status == 503
        assert body["status"] == "not ready" and body["reason"].startswith("telegram")
    finally:
        await server.stop()
        await bot.stop()
        await tg.stop()


async def test_a_taken_health_port_ends_the_start_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeTelegram() as tg:
            proc = await start_bot(
                {
                    "TELEGRAM_TOKEN": tg.token,
                    "TELEGRAM_BASE_URL": tg.base_url,
                    "TAVOLA_DATA_DIR": str(tmp_path),
                    "TAVOLA_HEALTH_PORT": str(port),
                    "WEBHOOK_LISTEN": "127.0.0.1",
                }
            )
            _, err = await asyncio.wait_for(proc.communicate(), 60)
    log = err.decode()
    assert proc.returncode == 2, log
    assert "Traceback" not in log
    assert (
        log.strip()
        .splitlines()[-1]
        .startswith(f"tavola: TAVOLA_HEALTH_PORT: cannot listen on 127.0.0.1 port {port}")
    )
