"""The bot's own CPU per board handed to the drawing process: ``python -m benchmarks.drawer``.

Drawing a board in a process of its own (``bot.drawing``) takes Pillow off the bot's
event loop, but handing the board over and reading its PNG back still costs the bot some
CPU (pickling, the pipe, waking the loop). This measures that cost: one drawer is started
and warmed up, then boards of ``benchmarks.render``'s positions are drawn through it, one
at a time or ``--concurrency`` at once, and the CPU time of the bot's process (all its
threads, the drawer's excluded: ``time.process_time``) is divided by the boards drawn.
Each round is reported, so the spread shows; a board drawn in a thread of the bot (no
drawer ready) would count its drawing too, and is reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from benchmarks.render import positions
from bot.drawing import DrawingPool
from render import BoardView

READY_SECONDS = 120.0


async def _drain(pool: DrawingPool, queue: list[BoardView]) -> None:
    """Draw the boards of ``queue`` one after another (beside other drainers)."""
    while queue:
        await pool.draw(queue.pop(), "white")


async def _rounds(boards: int, rounds: int, concurrency: int) -> tuple[list[float], int]:
    """CPU seconds of this process per board, for each round; boards drawn in a thread."""
    views = positions(30, 4)
    pool = DrawingPool(1)
    try:
        await asyncio.to_thread(pool.start)
        deadline = time.monotonic() + READY_SECONDS
        while not pool.ready:
            if time.monotonic() > deadline:
                raise SystemExit("the drawer never became ready")
            await asyncio.sleep(0.05)
        for view in views:  # every background built in the drawer
            await pool.draw(view, "white")
        in_thread = pool.in_thread
        per_board: list[float] = []
        for _ in range(rounds):
            queue = [views[i % len(views)] for i in range(boards)]
            started = time.process_time()
            await asyncio.gather(*(_drain(pool, queue) for _ in range(concurrency)))
            per_board.append((time.process_time() - started) / boards)
        return per_board, pool.in_thread - in_thread
    finally:
        pool.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.drawer", description=__doc__)
    parser.add_argument("--boards", type=int, default=300, help="boards per round (300)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    parser.add_argument("--concurrency", type=int, default=1, help="boards asked for at once (1)")
    args = parser.parse_args(argv)
    per_board, in_thread = asyncio.run(_rounds(args.boards, args.rounds, args.concurrency))
    rounds = ", ".join(f"{x * 1000:.2f}" for x in per_board)
    print(
        f"bot CPU per board handed over: median {statistics.median(per_board) * 1000:.2f} ms "
        f"(rounds: {rounds}; {args.boards} boards each, {args.concurrency} at once); "
        f"boards drawn in a thread instead: {in_thread}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
