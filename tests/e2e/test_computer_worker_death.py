"""A computer worker that dies (killed, out of memory) costs no game: the next decision
is made by a fresh worker, and the game goes on to its end with every press answered."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator

import pytest

from bot.computer import ComputerPool

from .conftest import BotUnderTest, play_until
from .fake_telegram import FakeTelegram, FakeUser

pytestmark = pytest.mark.slow


@pytest.fixture
def computer() -> Iterator[ComputerPool]:
    """A pool of this test's own: its worker is killed."""
    pool = ComputerPool(1)
    yield pool
    pool.close()


async def test_the_computer_plays_on_after_its_worker_is_killed(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, computer: ComputerPool
) -> None:
    chat = tg.private_chat(anna)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Medio", "1 partita"):
        await bot.press(chat, anna, tg.message(chat, menu_id), label)
    killed = await computer.run(30.0, os.getpid)  # the pool's one worker
    assert killed != os.getpid()
    os.kill(killed, signal.SIGKILL)

    board = await play_until(bot, chat, (anna, anna), {"Rivincita"})
    assert re.search(r"(Anna|Computer) vince la partita: ", board.caption or "")
    assert "Computer" in (board.caption or "")
    assert await computer.run(30.0, os.getpid) != killed  # a fresh worker took over
