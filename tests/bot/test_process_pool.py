"""The worker pool shared by the computer and the board drawers (``bot.process_pool``): each
pool's warm-up runs in a worker before its first call, a pool is ready only once its
workers have warmed up, and handing calls over starts no thread in the bot."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from bot.drawing import DrawingPool
from bot.process_pool import ProcessPool, _Worker
from render import BoardView, board_png

READY_SECONDS = 60.0  # a fork server preloading the networks on a busy machine
WARM_SECONDS = 1.0


def _warm_slowly() -> None:
    """A warm-up that takes a while and leaves a mark in the worker."""
    time.sleep(WARM_SECONDS)
    os.environ["TAVOLA_TEST_WARMED"] = str(os.getpid())


def _warmed() -> str:
    return os.environ.get("TAVOLA_TEST_WARMED", "")


def _fail_to_warm() -> None:
    raise OSError("no fonts here")


def _fail_to_warm_once(mark: str) -> None:
    """Fails the first time (leaving ``mark``), warms up the next."""
    if not os.path.exists(mark):
        Path(mark).touch()
        raise OSError("no memory for a moment")


async def _until_ready(ready: object) -> float:
    started = time.monotonic()
    while not ready():  # type: ignore[operator]
        assert time.monotonic() - started < READY_SECONDS, "never ready"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def test_each_worker_warms_up_before_its_first_call() -> None:
    pool = ProcessPool(2, warm=_warm_slowly, what="test worker")
    try:
        first, second = await asyncio.gather(
            pool.call(READY_SECONDS, _warmed), pool.call(READY_SECONDS, _warmed)
        )
    finally:
        pool.close()
    assert first and second and first != second  # each worker ran the warm-up itself
    assert str(os.getpid()) not in (first, second)


async def test_a_pool_is_ready_once_its_workers_have_warmed_up() -> None:
    pool = ProcessPool(1, warm=_warm_slowly, what="test worker")
    try:
        assert not pool.ready()
        await asyncio.to_thread(pool.start)
        assert not pool.ready()  # forked, still warming up
        assert await _until_ready(pool.ready) > WARM_SECONDS / 2
        assert await pool.call(30.0, _warmed) == str(pool.pids()[0])
    finally:
        pool.close()
    assert not pool.ready()


async def test_boards_are_handed_over_with_no_thread_in_the_bot() -> None:
    """No feeder or manager thread: the event loop alone watches the drawer's pipe (the
    threads of the loop's own executor, which started the drawer, aside)."""
    drawing = DrawingPool(1)
    try:
        await asyncio.to_thread(drawing.start)
        await _until_ready(lambda: drawing.ready)
        view = BoardView.start("classic")
        drawn = await asyncio.gather(*(drawing.draw(view, "white") for _ in range(4)))
        assert drawn == [board_png(view, orientation="white")] * 4
        assert drawing.in_thread == 0
        others = [
            t.name
            for t in threading.enumerate()
            if t is not threading.main_thread() and not t.name.startswith("asyncio_")
        ]
        assert others == []
    finally:
        drawing.close()


async def test_a_worker_whose_warm_up_fails_serves_but_its_pool_is_never_ready(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A drawer whose warm-up fails is not used (the boards are drawn in a thread) and not
    forked again and again: it is said once, in the log."""
    pool = ProcessPool(1, warm=_fail_to_warm, what="test worker")
    try:
        assert await pool.call(READY_SECONDS, int, "7") == 7
        pid = pool.pids()
        assert not pool.ready()
        assert await pool.call(30.0, int, "8") == 8
        assert pool.pids() == pid and pool.replaced == 0
    finally:
        pool.close()
    assert "a test worker cannot warm up: OSError('no fonts here')" in caplog.text


async def test_a_worker_whose_warm_up_failed_is_replaced_after_a_wait(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """In a pool that retries (the drawers'), a failed warm-up is tried again in another
    worker once the wait is over, and the pool becomes ready."""
    warm = partial(_fail_to_warm_once, str(tmp_path / "failed once"))
    pool = ProcessPool(1, warm=warm, retry_cold_after=0.5, what="test worker")
    try:
        await asyncio.to_thread(pool.start)
        [cold] = pool.pids()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READY_SECONDS
        while not pool.ready():
            assert loop.time() < deadline, "never ready"
            pool.start_soon()  # what the drawers' pool does when it is not ready
            await asyncio.sleep(0.05)
        [warm_one] = pool.pids()
        assert warm_one != cold and pool.replaced == 1
        assert await pool.call(30.0, int, "9") == 9
    finally:
        pool.close()
    assert "a test worker cannot warm up: OSError('no memory for a moment')" in caplog.text
    assert "failed to warm up 0.5 s ago: trying another" in caplog.text


class _ForkRecordingPool(ProcessPool):
    """A pool that notes the thread each of its workers is forked from."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers, what="test worker")
        self.forked_from: list[threading.Thread] = []

    def _fork(self) -> _Worker:
        self.forked_from.append(threading.current_thread())
        return super()._fork()


async def test_a_missing_worker_is_forked_off_the_event_loop() -> None:
    """Forking waits for the fork server (seconds while it preloads the engine): a call
    that finds no worker must not hold the event loop for it."""
    pool = _ForkRecordingPool(1)
    try:
        assert await pool.call(READY_SECONDS, os.getpid) != os.getpid()
        os.kill(pool.pids()[0], 9)  # a dead worker is replaced the same way
        await _until_replaced(pool)
        assert await pool.call(READY_SECONDS, os.getpid) != os.getpid()
    finally:
        pool.close()
    assert len(pool.forked_from) == 2
    assert threading.current_thread() not in pool.forked_from


async def _until_replaced(pool: ProcessPool) -> None:
    started = time.monotonic()
    while pool.replaced == 0:
        assert time.monotonic() - started < READY_SECONDS, "the dead worker was never noticed"
        await asyncio.sleep(0.02)
