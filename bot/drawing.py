"""Board pictures drawn in a process of their own, so Pillow never holds the bot's GIL.

Composing a board and encoding its PNG costs about 8 ms of CPU, a fifth of what the bot
spends on a turn. Drawn in a thread of the bot's process, that work takes the GIL from the
event loop, and every press waiting to be answered waits for it too. So the boards are
drawn by a long-lived worker process (``TAVOLA_DRAW_WORKERS``, one by default), in the same
kind of pool as the computer's workers (``bot.process_pool``: one pipe per drawer, watched
by the event loop, no thread in the bot), forked from the same fork server
(``bot.fork_server``: it has this module and the renderer imported, so a drawer starts in
milliseconds).

What travels: the board's ``BoardView`` and its orientation (about 600 bytes pickled),
and back the PNG's bytes (about 100 KB). Measured per board: the bot's own CPU goes from
about 6.4 ms (drawn in its thread) to 0.5 ms (handing it over: ``python -m
benchmarks.drawer``; 1.0 to 1.4 ms through a ``ProcessPoolExecutor``, whose feeder and
manager threads wake for each board), the drawer's 6.9 ms all off the event loop.

A drawer builds the renderer's caches (palette, pieces, fonts, the mapped backgrounds)
before it takes its first board; until it has, and whenever no drawer can be used, boards
are drawn in a thread of the bot as before, so a board is never lost nor delayed by a
drawer starting. A drawer that dies (killed, out of memory) or hangs (a board held for
the whole budget) is replaced, and the board it was drawing is drawn in a thread instead;
one whose warm-up fails is replaced a few seconds later, then less and less often while
the failures go on.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import BrokenExecutor

import render
from bot.process_pool import ProcessPool
from render import BoardView, board_png
from render import Side as RenderSide

log = logging.getLogger(__name__)

#: Longer than any board takes (about 10 ms, a few hundred behind a queue of them): a
#: drawer that has held one board that long is taken for stuck, replaced, and the board
#: drawn in a thread.
DRAW_BUDGET_SECONDS = 5.0
#: A drawer whose warm-up failed is replaced this long after (then twice as long, and so
#: on, up to about five minutes): meanwhile the bot draws the boards itself.
COLD_RETRY_SECONDS = 5.0
#: Boards handed to each drawer at once: one drawn, one waiting for it. The others wait
#: for a slot, where a cancelled one costs nothing.
IN_FLIGHT_PER_WORKER = 2


def draw(view: BoardView, orientation: RenderSide) -> bytes:
    """The board's PNG (in a drawer, or in a thread of the bot)."""
    return board_png(view, orientation=orientation)


async def draw_in_thread(view: BoardView, orientation: RenderSide) -> bytes:
    """The board's PNG, drawn in a thread of the bot's own process."""
    return await asyncio.to_thread(draw, view, orientation)


class DrawingPool:
    """Worker processes that draw the boards (see the module), on ``bot.process_pool``.

    ``start`` (in a thread: forking waits for the fork server's preloading) forks the
    drawers and has them warm up; ``draw`` uses them once they are ready, the bot's thread
    otherwise; ``close`` stops them.

    The drawers build the renderer's caches (``render.warm_up``) before their first board,
    and take back the bot's priority from the fork server's lower one where the system
    allows it: a board is awaited like an answer, and at the computer's priority other
    work on the machine could starve the drawer for seconds.
    """

    def __init__(self, workers: int = 1, *, budget: float = DRAW_BUDGET_SECONDS) -> None:
        self.workers = max(1, workers)
        self.budget = budget
        self.in_thread = 0  # boards drawn in the bot's thread instead
        self._pool = ProcessPool(
            self.workers,
            warm=render.warm_up,
            niceness=0,
            stuck_seconds=budget,
            retry_cold_after=COLD_RETRY_SECONDS,
            what="board drawer",
        )
        self._started = False
        self._slots: asyncio.Semaphore | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Fork the drawers now and let them warm up (nothing once closed)."""
        self._started = True
        try:
            self._pool.start()
        except Exception as exc:
            if not self._pool.closed:  # drawers stopped while starting are no failure
                log.error("the board drawers cannot start: %r", exc)

    @property
    def replaced(self) -> int:
        """Drawers replaced after dying or hanging."""
        return self._pool.replaced

    @property
    def ready(self) -> bool:
        """Whether the drawers have started and warmed up, and none has failed since (a
        missing one is then started again, in a thread)."""
        if self._pool.ready():
            return True
        if self._started:
            self._pool.start_soon()
        return False

    def pids(self) -> list[int]:
        """The drawers' process ids (tests, diagnostics)."""
        return self._pool.pids()

    def close(self) -> None:
        """Stop the drawers now; boards asked for afterwards are drawn in a thread."""
        self._pool.close()

    # ------------------------------------------------------------------ drawing
    async def draw(self, view: BoardView, orientation: RenderSide) -> bytes:
        """The board's PNG: from a drawer when one is ready, else from a thread. An error
        of the drawing itself is raised."""
        if self.ready:
            if self._slots is None:
                self._slots = asyncio.Semaphore(self.workers * IN_FLIGHT_PER_WORKER)
            async with self._slots:
                if self.ready:  # still, after waiting for a slot
                    try:
                        return await self._pool.call(self.budget, draw, view, orientation)
                    except TimeoutError:
                        why = f"no board after {self.budget} s"
                    except BrokenExecutor as exc:  # the drawer died, or was stopped
                        why = repr(exc)
                    if not self._pool.closed:
                        log.error("the board drawer failed (%s); drawing it in a thread", why)
        self.in_thread += 1
        return await draw_in_thread(view, orientation)
