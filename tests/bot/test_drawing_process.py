"""The board drawing process (``bot.drawing``): the same PNG as the bot's own drawing, a
small message each way, a dead or stuck drawer replaced without losing the board, and
nothing left running once closed."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import time
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from bot.adapters import metrics
from bot.drawing import DrawingPool
from render import BoardView, LastStep, board_png, samples
from render import Side as RenderSide
from tests.pids import running

READY_SECONDS = 60.0  # a fork server preloading the networks on a busy machine

VIEWS: list[tuple[BoardView, RenderSide]] = [
    (BoardView.start("classic"), "white"),
    (BoardView.start("long", perspective="black"), "black"),
    (samples.classic_bar_hit(), "white"),
    (samples.long_midgame(), "white"),
    (samples.classic_cube("black"), "black"),
    (
        BoardView(
            dice=((6, True), (5, False)),
            last_play=(LastStep("white", 24, 18, False),),
            status="Tocca al Bianco",
        ),
        "white",
    ),
]


async def _until_ready(pool: DrawingPool) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while not pool.ready:
        assert time.monotonic() < deadline, "the drawer never became ready"
        await asyncio.sleep(0.05)


async def _until_gone(pids: list[int]) -> list[int]:
    deadline = time.monotonic() + 5.0
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return [p for p in pids if running(p)]


@pytest.fixture
def pool() -> Iterator[DrawingPool]:
    drawing = DrawingPool(1)
    yield drawing
    drawing.close()


def test_a_board_travels_as_a_small_message() -> None:
    for view, orientation in VIEWS:
        assert len(pickle.dumps((view, orientation), pickle.HIGHEST_PROTOCOL)) < 1024


async def test_the_drawer_draws_the_same_bytes_as_the_bot(pool: DrawingPool) -> None:
    await asyncio.to_thread(pool.start)
    await _until_ready(pool)
    pids = pool.pids()
    assert len(pids) == 1 and pids[0] != os.getpid()
    for view, orientation in VIEWS:
        assert await pool.draw(view, orientation) == board_png(view, orientation=orientation)
    assert pool.in_thread == 0  # every one of them came from the drawer


async def test_boards_asked_before_the_drawer_is_ready_are_drawn_in_a_thread(
    pool: DrawingPool,
) -> None:
    view, orientation = VIEWS[2]
    assert await pool.draw(view, orientation) == board_png(view, orientation=orientation)
    assert pool.in_thread == 1


async def test_a_killed_drawer_is_replaced_and_the_board_still_drawn(pool: DrawingPool) -> None:
    await asyncio.to_thread(pool.start)
    await _until_ready(pool)
    [first] = pool.pids()
    os.kill(first, signal.SIGKILL)
    assert await _until_gone([first]) == []
    view, orientation = VIEWS[3]
    expected = board_png(view, orientation=orientation)
    assert await pool.draw(view, orientation) == expected  # drawn in a thread meanwhile
    assert pool.replaced == 1
    metrics.pools_seen({"computer": None, "drawer": pool}, in_thread=pool.in_thread)
    assert REGISTRY.get_sample_value("tavola_workers_replaced", {"pool": "drawer"}) == 1
    assert REGISTRY.get_sample_value("tavola_workers_replaced", {"pool": "computer"}) == 0
    assert REGISTRY.get_sample_value("tavola_boards_drawn_in_thread") == pool.in_thread
    await _until_ready(pool)
    [second] = pool.pids()
    assert second != first
    drawn_in_thread = pool.in_thread
    assert await pool.draw(view, orientation) == expected
    assert pool.in_thread == drawn_in_thread  # the new drawer drew it


async def test_a_stuck_drawer_is_replaced_and_the_board_still_drawn() -> None:
    pool = DrawingPool(1, budget=1.0)
    try:
        await asyncio.to_thread(pool.start)
        await _until_ready(pool)
        [stuck] = pool.pids()
        os.kill(stuck, signal.SIGSTOP)
        # one board in the stuck drawer, one waiting in its pipe, one waiting for a slot
        drawn = await asyncio.gather(*(pool.draw(v, o) for v, o in VIEWS[3:6]))
        assert drawn == [board_png(v, orientation=o) for v, o in VIEWS[3:6]]
        assert pool.replaced == 1
        assert await _until_gone([stuck]) == []
    finally:
        pool.close()


async def test_closing_leaves_no_drawer_behind() -> None:
    pool = DrawingPool(2)
    await asyncio.to_thread(pool.start)
    await _until_ready(pool)
    pids = pool.pids()
    assert len(pids) == 2
    pool.close()
    assert await _until_gone(pids) == []
    view, orientation = VIEWS[0]
    assert await pool.draw(view, orientation) == board_png(view, orientation=orientation)
    assert pool.pids() == []
