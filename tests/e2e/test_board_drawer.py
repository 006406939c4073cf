"""Boards drawn by the drawing process (``TAVOLA_DRAW_WORKERS``, ``bot.drawing``) through
the whole bot: a drawer killed between two presses is replaced and the next board still
arrives, the new drawer draws the ones after it, and stopping the bot stops the drawer."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from bot.computer import ComputerPool
from bot.drawing import DrawingPool
from bot.services import of_app
from bot.views.painter import picture_key
from render import board_png
from storage import GameRepository
from tests.pids import running

from .conftest import (
    BotUnderTest,
    _legal_steps,
    choose_step,
    start_match,
    turn_holder,
)
from .fake_telegram import FakeChat, FakeTelegram, FakeUser

READY_SECONDS = 60.0  # the fork server loads the networks first, on a busy machine


async def _until(condition: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


@pytest.fixture
async def drawing_bot(
    tg: FakeTelegram, repo: GameRepository, computer: ComputerPool
) -> AsyncIterator[BotUnderTest]:
    """The bot with one drawing process, as ``python -m bot`` runs by default."""
    under_test = BotUnderTest(tg, repo, computer=computer)
    under_test.settings = dataclasses.replace(under_test.settings, draw_workers=1)
    await under_test.start()
    assert under_test.app is not None
    drawer = of_app(under_test.app).drawer
    try:
        yield under_test
    finally:
        await under_test.stop()
        if drawer is not None:  # the harness's stop runs no post_stop hook
            drawer.close()


def _drawer(bot: BotUnderTest) -> DrawingPool:
    assert bot.app is not None
    drawer = of_app(bot.app).drawer
    assert drawer is not None
    return drawer


async def _one_turn(bot: BotUnderTest, group: FakeChat, players: tuple[FakeUser, FakeUser]) -> None:
    """The player on turn plays a turn on the board's buttons and confirms it (a redraw
    follows)."""
    for _ in range(10):
        board = bot.board(group)
        user = turn_holder(board.caption or "", players)
        assert user is not None, board.caption
        confirm = "✅ Conferma" in board.button_texts
        if confirm:
            data = board.data_for("✅ Conferma")
        else:
            data = choose_step(board, await _legal_steps(bot, group))
        assert data is not None, board.button_texts
        reaction = await bot.press(group, user, board, data=data)
        assert reaction.alert is None, reaction.alert
        await bot.idle()
        if confirm:
            return
    raise AssertionError("the turn did not end")


async def _shows_its_saved_state(bot: BotUnderTest, group: FakeChat) -> None:
    """The board on screen is the picture of the saved game, drawn since the last press."""
    table = await bot.table(group)
    stored = await bot.stored(group)
    view, orientation = picture_key(table)
    assert stored is not None and stored.shown_version == stored.version
    assert bot.board(group).photo == board_png(view, orientation=orientation)


async def test_a_killed_drawer_is_replaced_and_every_board_arrives(
    drawing_bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot, players = drawing_bot, (anna, bruno)
    drawer = _drawer(bot)
    await _until(lambda: drawer.ready, READY_SECONDS, "the drawer never became ready")
    await start_match(bot, group, anna, bruno)
    await bot.idle()
    await _shows_its_saved_state(bot, group)
    [first] = drawer.pids()
    in_thread = drawer.in_thread
    await _one_turn(bot, group, players)
    await _shows_its_saved_state(bot, group)
    assert drawer.in_thread == in_thread  # the drawer drew it

    os.kill(first, signal.SIGKILL)
    await _until(lambda: not running(first), 5.0, "the drawer did not die")
    shown = bot.board(group).photo
    await _one_turn(bot, group, players)
    assert bot.board(group).photo != shown
    await _shows_its_saved_state(bot, group)  # drawn all the same (in a thread)
    assert drawer.replaced == 1

    await _until(lambda: drawer.ready, READY_SECONDS, "no new drawer")
    [second] = drawer.pids()
    assert second != first
    in_thread = drawer.in_thread
    await _one_turn(bot, group, players)
    await _shows_its_saved_state(bot, group)
    assert drawer.in_thread == in_thread  # the new drawer drew it


async def test_stopping_the_bot_stops_its_drawer(
    drawing_bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot = drawing_bot
    drawer = _drawer(bot)
    assert bot.app is not None
    await _until(lambda: drawer.ready, READY_SECONDS, "the drawer never became ready")
    pids = drawer.pids()
    assert len(pids) == 1
    await start_match(bot, group, anna, bruno)
    await bot.idle()
    await _shows_its_saved_state(bot, group)
    await bot.app.post_stop(bot.app)  # as python -m bot stops (bot.__main__)
    await bot.stop()
    await _until(lambda: not any(running(p) for p in pids), 5.0, "a drawer outlived the bot")
    assert drawer.pids() == []
