"""``python -m bot`` draws its boards in a process of its own (``bot.drawing``), forked from
the computer's fork server beside the computer's workers; stopping the bot (SIGTERM) stops
it with the rest, and nothing is left running."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest

from storage import EmbeddedValkey
from tests.pids import running

from .fake_telegram import FakeTelegram
from .processes import START_TIMEOUT, start_a_game, start_bot
from .test_process_life import EXIT_SECONDS, _children, _exit_after_sigterm, _workers

pytestmark = pytest.mark.serial

AFTER_EXIT_SECONDS = 3.0  # for the fork server's children to be gone once the bot is


def _fork_server_children(bot_pid: int) -> list[int]:
    """The processes the bot's fork server forked (the computer's workers, the drawers)."""
    children = _children()
    for pid in _workers(bot_pid):
        with contextlib.suppress(OSError):
            if b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return [p for p in children.get(pid, []) if running(p)]
    return []


async def test_the_drawer_runs_beside_the_computer_and_stops_with_the_bot(
    own_valkey: EmbeddedValkey,
) -> None:
    async with FakeTelegram() as tg:
        anna, bruno = tg.user(1, "Anna"), tg.user(2, "Bruno")
        group = tg.group(-1001, "Circolo")
        env = {
            "TELEGRAM_TOKEN": tg.token,
            "TELEGRAM_BASE_URL": tg.base_url,
            "REDIS_URL": own_valkey.url,
            "TAVOLA_AI_WORKERS": "1",
        }
        proc = await start_bot(env)
        workers: list[int] = []
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            sent = await start_a_game(tg, group, anna, bruno)
            assert sent.ok  # the board was drawn
            loop = asyncio.get_running_loop()
            deadline = loop.time() + START_TIMEOUT
            # the computer's one worker and the drawer
            while len(_fork_server_children(proc.pid)) < 2:
                assert loop.time() < deadline, _fork_server_children(proc.pid)
                await asyncio.sleep(0.2)
            workers = _workers(proc.pid)
        except BaseException:
            proc.kill()
            raise
        took, _ = await _exit_after_sigterm(proc)
        assert took < EXIT_SECONDS, took
        deadline = asyncio.get_running_loop().time() + AFTER_EXIT_SECONDS
        while any(running(p) for p in workers):
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.05)
        left = [p for p in workers if running(p)]
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        assert left == [], f"{len(left)} of {len(workers)} processes outlived the bot"
