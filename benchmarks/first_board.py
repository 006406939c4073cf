"""Start-up benchmark: process exec to the first ``getUpdates``, and the first board.

Run from the repository root::

    python -m benchmarks.first_board                 # 3 runs
    python -m benchmarks.first_board --runs 5 --bot-root ../other-checkout

Each run starts the real bot (``python -m bot``, as ``benchmarks.load`` does: the fake Bot
API server with its limits and latency, an embedded Valkey of its own) and measures:

- exec -> getUpdates: from starting the process to its first ``getUpdates`` request, and
  the CPU time the bot's own process spent by then (its worker processes not counted: a
  figure that a machine loaded by other work changes less);
- press -> board: a player starts a game against the computer as soon as the bot polls
  (``/gioca``, then the set-up buttons): from the last set-up press to the first board
  picture in the chat, i.e. the first board of a fresh process, drawn while the renderer
  may still be warming up (and the computer's workers starting, when it opens the game);
- a second game (a group challenge, accepted) right after: press -> board once warm.

``--first group`` plays the group's game first (no computer in it), then the other.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.load import (
    REPO_ROOT,
    TOKEN,
    BotProcess,
    Game,
    Metrics,
    _accept_button,
    _launch_button,
    current_board,
    own_cpu_seconds,
)
from storage.embedded import EmbeddedValkey
from tests.e2e.fake_telegram import FakeTelegram

TIMEOUT = 60.0


async def wait_polling(tg: FakeTelegram, bot: BotProcess, started: float) -> float:
    """Seconds from ``started`` to the bot's first getUpdates (checked every 5 ms)."""
    while not any(r.is_polling for r in tg.requests):
        if bot.proc is not None and bot.proc.returncode is not None:
            raise RuntimeError(f"the bot exited:\n{bot.log_tail()}")
        if time.monotonic() - started > TIMEOUT:
            raise RuntimeError(f"the bot did not poll:\n{bot.log_tail()}")
        await asyncio.sleep(0.005)
    return time.monotonic() - started


async def shown(game: Game, data: str) -> None:
    """Wait until a message of the chat has the button ``data``."""
    deadline = time.monotonic() + TIMEOUT
    while not any(data in m.callback_data for m in game.tg.chat_messages(game.chat)):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no button {data}")
        await asyncio.sleep(0.01)


async def press_to_board(game: Game, picks: list[str], think: float = 0.0) -> float:
    """Press each set-up button in turn, ``think`` seconds after it shows (a person reads
    the menu); seconds from the last press to the first board."""
    user = game.players[0]
    pressed = 0.0
    for n, pick in enumerate(picks):
        if think > 0:
            await shown(game, pick)
            await asyncio.sleep(think)
        if not await game.press_when_shown(user, pick.__eq__, TIMEOUT):
            raise RuntimeError(f"no button {pick}")
        if n == len(picks) - 1:
            pressed = time.monotonic()
    if not await game.wait_board(TIMEOUT):
        raise RuntimeError("no board")
    board = current_board(game.tg, game.chat)
    assert board is not None
    return board.updated_at - pressed


async def group_to_board(game: Game) -> float:
    challenger, opponent = game.players
    game.tg.send_message(game.chat, challenger, "/sfida")
    if not await game.press_when_shown(challenger, _launch_button, TIMEOUT):
        raise RuntimeError("no challenge card")
    pressed = time.monotonic()
    if not await game.press_when_shown(opponent, _accept_button, TIMEOUT):
        raise RuntimeError("no accept button")
    if not await game.wait_board(TIMEOUT):
        raise RuntimeError("no board")
    board = current_board(game.tg, game.chat)
    assert board is not None
    return board.updated_at - pressed


async def one_run(args: argparse.Namespace, n: int) -> tuple[float, float, float, float]:
    import random

    rng = random.Random(n)
    with tempfile.TemporaryDirectory(prefix="tavola-start-") as tmp:
        data_dir = Path(tmp)
        valkey = EmbeddedValkey(data_dir / "valkey")
        await asyncio.to_thread(valkey.start)
        try:
            async with FakeTelegram(TOKEN, enforce_limits=True, latency=args.latency) as tg:
                bot = BotProcess(
                    tg,
                    valkey.url,
                    data_dir / "bot",
                    root=args.bot_root.resolve(),
                    python=args.bot_python,
                )
                bot.data_dir.mkdir()
                user = tg.user(1000 + n, "Anna")
                chat = tg.private_chat(user)
                game = Game(tg, chat, (user,), Metrics(), rng, TIMEOUT)
                started = time.monotonic()
                starting = asyncio.create_task(bot.start())
                try:
                    polling = await wait_polling(tg, bot, started)
                    polling_cpu = own_cpu_seconds(bot.pid)
                    group = Game(
                        tg,
                        tg.group(-(1000 + n), "Tavolo"),
                        (tg.user(2000 + n, "Bruno"), tg.user(3000 + n, "Carla")),
                        Metrics(),
                        rng,
                        TIMEOUT,
                    )
                    picks = ["p:classic", "p:classic:medio", "p:classic:medio:1"]
                    if args.first == "group":
                        first = await group_to_board(group)
                        tg.send_message(chat, user, "/gioca")
                        second = await press_to_board(game, picks, args.think)
                    else:
                        tg.send_message(chat, user, "/gioca")
                        first = await press_to_board(game, picks, args.think)
                        second = await group_to_board(group)
                finally:
                    await starting
                    await bot.stop()
                return polling, polling_cpu, first, second
        finally:
            await asyncio.to_thread(valkey.stop)


async def run(args: argparse.Namespace) -> None:
    rows = []
    print(
        f"{'run':>3} {'exec->getUpdates ms':>20} {'its CPU ms':>10} {'press->1st board ms':>20} "
        f"{'2nd game ms':>12}"
    )
    for n in range(args.runs):
        row = await one_run(args, n)
        rows.append(row)
        polling, cpu, first, second = (x * 1000 for x in row)
        print(f"{n + 1:>3} {polling:20.0f} {cpu:10.0f} {first:20.0f} {second:12.0f}")
    if len(rows) > 1:
        medians = [statistics.median(col) * 1000 for col in zip(*rows, strict=True)]
        polling, cpu, first, second = medians
        print(f"{'med':>3} {polling:20.0f} {cpu:10.0f} {first:20.0f} {second:12.0f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.first_board", description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--first",
        choices=["computer", "group"],
        default="computer",
        help="the first game: against the computer (then a group's), or a group's (then one "
        "against the computer)",
    )
    parser.add_argument("--latency", type=float, default=0.03, help="per request, s (0.03)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="s the player reads each set-up question before pressing (0); a private chat's "
        "messages are a token bucket (3 at once, then one a second): the set-up's edits, the "
        "dice commitment and the board share it",
    )
    parser.add_argument("--bot-root", type=Path, default=REPO_ROOT, help="run the bot from here")
    parser.add_argument("--bot-python", default=sys.executable, help="with this interpreter")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
