"""Running ``python -m bot`` as a real process for the end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp

from tests.ports import free_port

from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest

__all__ = ["free_port"]  # the e2e tests take it from here

START_TIMEOUT = 60.0  # a fresh process loads the computer's networks before it polls
HEADER = "X-Telegram-Bot-Api-Secret-Token"


async def start_bot(env: dict[str, str]) -> asyncio.subprocess.Process:
    """``python -m bot`` configured by ``env`` alone (this process's REDIS_URL and
    WEBHOOK_URL are not inherited). No health server unless ``env`` asks for one: its
    default port would be shared by the bots of tests running at once."""
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEBHOOK_URL")}
    base["TAVOLA_HEALTH_PORT"] = "0"
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def stop_bot(proc: asyncio.subprocess.Process) -> str:
    """SIGTERM, as a platform does; the bot must exit cleanly. Returns its log."""
    proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode()
    assert proc.returncode == 0, log
    return log


def bot_env(tg: FakeTelegram, data_dir: Path) -> dict[str, str]:
    """The environment of a bot talking to the fake, with its own Valkey under ``data_dir``."""
    return {
        "TELEGRAM_TOKEN": tg.token,
        "TELEGRAM_BASE_URL": tg.base_url,
        "TAVOLA_DATA_DIR": str(data_dir),
    }


def webhook_env(tg: FakeTelegram, data_dir: Path, port: int) -> dict[str, str]:
    """`bot_env` in webhook mode, listening on ``port``."""
    return {**bot_env(tg, data_dir), "WEBHOOK_URL": f"http://127.0.0.1:{port}", "PORT": str(port)}


async def start_a_game(
    tg: FakeTelegram, group: FakeChat, challenger: FakeUser, opponent: FakeUser
) -> RecordedRequest:
    """/sfida classico 1, Lancia la sfida and Accetta against the running process; returns
    the request that sent the first board."""
    tg.send_message(group, challenger, "/sfida classico 1")
    await tg.wait_for("sendMessage", timeout=10)
    card = tg.last_bot_message(group)
    tg.press(group, challenger, card, card.data_for("Lancia la sfida"))
    await tg.wait_for("editMessageText", timeout=10)
    card = tg.message(group, card.message_id)
    tg.press(group, opponent, card, card.data_for("Accetta"))
    return await tg.wait_for("sendPhoto", timeout=20)


WEBHOOK_START_TIMEOUT = 60.0


async def start_webhook_worker(
    tg: FakeTelegram, redis_url: str, port: int, secret: str
) -> asyncio.subprocess.Process:
    """One webhook worker of the bot (several may share one Redis), on ``port``."""
    return await start_bot(
        {
            "TELEGRAM_TOKEN": tg.token,
            "TELEGRAM_BASE_URL": tg.base_url,
            "REDIS_URL": redis_url,
            "WEBHOOK_URL": f"http://127.0.0.1:{port}",
            "WEBHOOK_SECRET": secret,
            "PORT": str(port),
        }
    )


async def wait_listening(port: int, timeout: float = WEBHOOK_START_TIMEOUT) -> None:
    """Until something accepts connections on ``port`` (a worker's webhook server)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        if loop.time() > deadline:
            raise TimeoutError(f"no webhook server on port {port}")
        await asyncio.sleep(0.1)


async def deliver_webhook(
    http: aiohttp.ClientSession, port: int, update: dict[str, Any], secret: str
) -> None:
    """Post ``update`` to a worker as Telegram would; the worker must take it (200)."""
    async with http.post(
        f"http://127.0.0.1:{port}/telegram",
        json=update,
        headers={"X-Telegram-Bot-Api-Secret-Token": secret},
    ) as response:
        assert response.status == 200, (port, response.status, await response.text())
