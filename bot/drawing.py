"""Board pictures drawn in a process of their own, so Pillow never holds the bot's GIL.

Composing a board and encoding its PNG costs about 8 ms of CPU, a fifth of what the bot
spends on a turn. Drawn in a thread of the bot's process, that work takes the GIL from the
event loop, and every press waiting to be answered waits for it too. So the boards are
drawn by a long-lived worker process (``TAVOLA_DRAW_WORKERS``, one by default), forked from
the computer's fork server like its workers (``bot.fork_server``: it has this module and
the renderer imported, so a drawer starts in milliseconds).

What travels: the board's ``BoardView`` and its orientation (about 600 bytes pickled),
and back the PNG's bytes (about 100 KB). Measured per board: the bot's own CPU goes from
about 6.4 ms (drawn in its thread) to 1.1 ms (handing it over), and the total from 6.4 to
8.0 ms (the drawer's 6.9 included): a little more CPU, all of it off the event loop.

A drawer builds the renderer's caches (palette, pieces, fonts, the mapped backgrounds)
before it takes its first board; until it has, and whenever no drawer can be used, boards
are drawn in a thread of the bot as before, so a board is never lost nor delayed by a
drawer starting. A drawer that dies (killed, out of
memory) or hangs is replaced, and the board it was drawing is drawn in a thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor

import render
from bot import fork_server
from bot.computer import _die_with, _niceness
from render import BoardView, board_png
from render import Side as RenderSide

log = logging.getLogger(__name__)

#: Longer than any board takes (about 10 ms, a few hundred behind a queue of them): past
#: it the drawer is taken for stuck, replaced, and the board drawn in a thread.
DRAW_BUDGET_SECONDS = 5.0
#: Boards handed to each drawer at once: one drawn, one waiting in its pipe. The others
#: wait on the event loop, where a cancelled one costs nothing.
IN_FLIGHT_PER_WORKER = 2
STOP_SECONDS = 2.0  # how long close() waits for the pool's manager thread


def draw(view: BoardView, orientation: RenderSide) -> bytes:
    """The board's PNG (in a drawer, or in a thread of the bot)."""
    return board_png(view, orientation=orientation)


async def draw_in_thread(view: BoardView, orientation: RenderSide) -> bytes:
    """The board's PNG, drawn in a thread of the bot's own process."""
    return await asyncio.to_thread(draw, view, orientation)


def _start_drawer(bot_pid: int, bot_niceness: int) -> None:
    """A drawer's start: die with the bot, take back the bot's priority where the system
    allows it, then build the renderer's caches, so its first board takes no longer than
    any other.

    The fork server runs at the computer's lower priority (``WORKER_NICENESS``) and its
    children inherit it: a board is awaited like an answer, and at that priority other work
    on the machine can starve the drawer for seconds. Raising a priority needs a privilege
    (CAP_SYS_NICE, or RLIMIT_NICE) that a process may not have: then it keeps the lower one.
    """
    _die_with(bot_pid)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(bot_niceness - os.nice(0))
    render.warm_up()


def _pid() -> int:
    return os.getpid()


class DrawingPool:
    """Worker processes that draw the boards (see the module).

    ``start`` (in a thread: forking waits for the fork server's preloading) forks the
    drawers and has them warm up; ``draw`` uses them once they are ready, the bot's thread
    otherwise; ``close`` stops them.
    """

    def __init__(self, workers: int = 1, *, budget: float = DRAW_BUDGET_SECONDS) -> None:
        self.workers = max(1, workers)
        self.budget = budget
        self.replaced = 0  # drawers replaced after dying or hanging
        self.in_thread = 0  # boards drawn in the bot's thread instead
        self._lock = threading.Lock()  # start() and replacing run in threads
        self._executor: ProcessPoolExecutor | None = None
        self._ready: list[Future[int]] = []
        self._closed = False
        self._slots: asyncio.Semaphore | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Fork the drawers now and let them warm up (nothing once closed)."""
        with self._lock:
            if self._closed or self._executor is not None:
                return
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=fork_server.context(),
                initializer=_start_drawer,
                initargs=(os.getpid(), _niceness()),
            )
            self._ready = [self._executor.submit(_pid) for _ in range(self.workers)]
        self._ready[0].add_done_callback(self._report_start)

    def _report_start(self, started: Future[int]) -> None:
        """Say when the drawers cannot start (the boards are then drawn in the bot's
        thread); drawers stopped while starting (the bot stopping) are no failure."""
        if self._closed or started.cancelled() or started.exception() is None:
            return
        log.error("the board drawers cannot start: %r", started.exception())

    @property
    def ready(self) -> bool:
        """Whether the drawers have started and warmed up, and none has failed since."""
        ready = self._ready
        return (
            self._executor is not None
            and bool(ready)
            and all(f.done() and not f.cancelled() and f.exception() is None for f in ready)
        )

    def pids(self) -> list[int]:
        """The drawers' process ids (tests, diagnostics)."""
        executor = self._executor
        if executor is None:
            return []
        return [p.pid for p in (executor._processes or {}).values() if p.pid is not None]

    def close(self) -> None:
        """Stop the drawers now; boards asked for afterwards are drawn in a thread."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        _stop(executor)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Stop a drawer pool that broke or hung and start another (unless closed, or
        replaced already by a board that noticed first)."""
        with self._lock:
            if self._executor is not broken:
                return
            self._executor = None
            self.replaced += 1
        _stop(broken)
        self.start()

    # ------------------------------------------------------------------ drawing
    async def draw(self, view: BoardView, orientation: RenderSide) -> bytes:
        """The board's PNG: from a drawer when one is ready, else from a thread."""
        executor = self._executor
        if executor is None or not self.ready:
            self.in_thread += 1
            return await draw_in_thread(view, orientation)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers * IN_FLIGHT_PER_WORKER)
        async with self._slots:
            drawn = await self._draw_in(executor, view, orientation)
            if isinstance(drawn, bytes):
                return drawn
            if not self._closed:
                log.error("the board drawer failed (%s); replacing it", drawn)
                await asyncio.to_thread(self._replace, executor)
        self.in_thread += 1
        return await draw_in_thread(view, orientation)

    async def _draw_in(
        self, executor: ProcessPoolExecutor, view: BoardView, orientation: RenderSide
    ) -> bytes | str:
        """The PNG from ``executor``, or why it could not give it (its drawer died or hung,
        or it was shut down meanwhile). An error of the drawing itself is raised."""
        try:
            future = asyncio.wrap_future(executor.submit(draw, view, orientation))
        except (BrokenExecutor, RuntimeError) as exc:  # RuntimeError: shut down
            return repr(exc)
        try:
            done, _ = await asyncio.wait({future}, timeout=self.budget)
        except asyncio.CancelledError:
            future.cancel()
            raise
        if not done:
            return f"no board after {self.budget} s"
        if future.cancelled():  # the pool was stopped (replaced, closed) meanwhile
            return "stopped"
        error = future.exception()
        if isinstance(error, BrokenExecutor):
            return repr(error)
        return future.result()


def _stop(executor: ProcessPoolExecutor | None) -> None:
    """Stop a pool's processes at once (a board under way is abandoned)."""
    if executor is None:
        return
    processes = list((executor._processes or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()  # SIGKILL: a stopped (hung) drawer ignores SIGTERM
    manager = getattr(executor, "_executor_manager_thread", None)
    if isinstance(manager, threading.Thread):
        manager.join(timeout=STOP_SECONDS)
