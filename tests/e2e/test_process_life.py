"""``python -m bot``'s life as a process: whatever kills it takes the computer's worker
processes along, and SIGTERM at any moment (start-up included) ends it with exit code 0,
within a few seconds and without a traceback, after its shutdown hooks ran."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

from storage import EmbeddedValkey
from tests.pids import running

from .fake_telegram import FakeTelegram
from .processes import (
    START_TIMEOUT,
    start_a_game,
    start_bot,
)

# Signals against time limits: scripts/test.sh runs these alone, after the parallel pass.
pytestmark = pytest.mark.serial

EXIT_SECONDS = 6.0  # SIGTERM to exit, at most
WARM_SECONDS = 8.0  # for the computer's workers to be ready


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(b")", 1)[1].split()[1])
        found.setdefault(ppid, []).append(int(entry))
    return found


def _workers(pid: int) -> list[int]:
    """The multiprocessing processes (fork server, workers) descending from ``pid``."""
    children, out, todo = _children(), [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            with contextlib.suppress(OSError):
                if b"multiprocessing" in Path(f"/proc/{child}/cmdline").read_bytes():
                    out.append(child)
    return out


def _env(tg: FakeTelegram, valkey: EmbeddedValkey) -> dict[str, str]:
    return {
        "TELEGRAM_TOKEN": tg.token,
        "TELEGRAM_BASE_URL": tg.base_url,
        "REDIS_URL": valkey.url,
        "TAVOLA_AI_WORKERS": "2",
    }


async def _exit_after_sigterm(proc: asyncio.subprocess.Process) -> tuple[float, str]:
    """SIGTERM; how long the process took to exit, and its stderr. It must exit 0."""
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
    took = time.monotonic() - sent
    log = err.decode()
    assert proc.returncode == 0, (proc.returncode, log)
    assert "Traceback" not in log, log
    assert " ERROR " not in log, log
    return took, log


async def test_the_computer_workers_die_with_a_killed_bot(own_valkey: EmbeddedValkey) -> None:
    async with FakeTelegram() as tg:
        proc = await start_bot(_env(tg, own_valkey))
        workers: list[int] = []
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + START_TIMEOUT
            while len(workers) < 3:  # the fork server and its two workers
                assert loop.time() < deadline, "the computer's workers never started"
                await asyncio.sleep(0.2)
                workers = _workers(proc.pid)
            await asyncio.sleep(WARM_SECONDS)  # the workers load the networks, then idle
            workers = _workers(proc.pid)
        finally:
            proc.kill()  # kill -9: no handler, no clean-up of its own
        # (not proc.wait(): it also waits for the bot's pipes, which surviving workers hold)
        while running(proc.pid):
            await asyncio.sleep(0.05)
        await asyncio.sleep(2.0)
        left = [pid for pid in workers if running(pid)]
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(proc.wait(), 10)
        assert left == [], f"{len(left)} of {len(workers)} worker processes outlived the bot"


@pytest.mark.parametrize("moment", ["importing", "getMe", "setMyCommands"])
async def test_sigterm_during_start_up_exits_0_at_once(
    own_valkey: EmbeddedValkey, moment: str
) -> None:
    async with FakeTelegram() as tg:
        proc = await start_bot(_env(tg, own_valkey))
        if moment == "importing":
            await asyncio.sleep(0.3)
        else:
            await _request_seen(tg, moment)
        took, _ = await _exit_after_sigterm(proc)
        assert took < EXIT_SECONDS, took


async def _request_seen(tg: FakeTelegram, method: str, count: int = 1) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while len([r for r in tg.requests if r.method == method]) < count:
        assert loop.time() < deadline, f"no {method}"
        await asyncio.sleep(0.05)


async def test_sigterm_mid_game_drains_and_exits_0(own_valkey: EmbeddedValkey) -> None:
    async with FakeTelegram() as tg:
        anna, bruno = tg.user(1, "Anna"), tg.user(2, "Bruno")
        group = tg.group(-1001, "Circolo")
        proc = await start_bot({**_env(tg, own_valkey), "TAVOLA_LOG_LEVEL": "INFO"})
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            await start_a_game(tg, group, anna, bruno)
            board = tg.last_bot_message(group)
            tg.press(group, anna, board, board.callback_data[0])  # a step being drawn
            await _request_seen(tg, "answerCallbackQuery", count=3)
        except BaseException:
            proc.kill()
            raise
        took, _ = await _exit_after_sigterm(proc)
        assert took < EXIT_SECONDS, took


async def test_sigterm_while_the_computer_thinks_exits_0(own_valkey: EmbeddedValkey) -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        proc = await start_bot(_env(tg, own_valkey))
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            tg.send_message(chat, anna, "/gioca")
            menu_id = (await tg.wait_for("sendMessage", timeout=10)).result["message_id"]
            for label in ("Backgammon classico", "Difficile"):
                menu = tg.message(chat, menu_id)
                tg.press(chat, anna, menu, menu.data_for(label))
                await tg.wait_for("editMessageText", timeout=10)
            menu = tg.message(chat, menu_id)
            tg.press(chat, anna, menu, menu.data_for("1 partita"))
            await tg.wait_for("sendPhoto", timeout=20)
            await asyncio.sleep(0.2)  # the computer is thinking of its move, if it starts
        except BaseException:
            proc.kill()
            raise
        took, _ = await _exit_after_sigterm(proc)
        assert took < EXIT_SECONDS, took
