"""CPU of the bot's Bot API requests, on the client's side only.

Runs the fake Bot API server (``tests/e2e/fake_telegram.py``) in a child process and a PTB
``ExtBot`` with the bot's own HTTP client (``bot.app.bot_request``) in this one,
then sends what a board costs: an ``editMessageMedia`` with a fresh picture of about 100 KB,
an ``editMessageCaption`` and a ``sendMessage``, from a few workers at once, with a burst of
concurrent requests now and then (many boards redrawn together open extra connections, as
in the bot). Only this process's CPU (``time.process_time``) is counted: the fake's work is
left out.

Variants, run in turn (alternating, ``--rounds`` times) so that a loaded machine weighs on
each alike:

- ``--keepalive N ...``: idle connections kept (``httpx.Limits.max_keepalive_connections``);
- ``--calls objects`` (PTB's methods, building a ``Message`` from each answer) or ``raw``
  (the painter's way, ``bot.adapters.raw_calls``: only the few fields it needs) for the
  board's two calls; the ``sendMessage`` goes through PTB's method in both, as the bot's do.

    python -m benchmarks.requests --keepalive 20 8 --calls objects raw
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from PIL import Image
from telegram import InputMediaPhoto
from telegram.constants import ParseMode
from telegram.ext import ExtBot

from bot import app as bot_app
from bot.adapters import raw_calls
from tests.e2e.fake_telegram import FakeTelegram


def picture(seed: int, size: int = 100_000) -> bytes:
    """A PNG of about ``size`` bytes (noise compresses badly), different for each seed."""
    rng = random.Random(seed)
    side = int((size / 3) ** 0.5)
    image = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


CHAT_ID = -100_200


def serve_fake(latency: float, ready: Connection) -> None:
    """The fake server, in a process of its own: its CPU is not the client's."""

    async def serve() -> None:
        async with FakeTelegram(latency=latency) as tg:
            tg.group(CHAT_ID, "bench", supergroup=True)
            ready.send((tg.token, tg.base_url))
            await asyncio.Event().wait()

    asyncio.run(serve())


class FakeProcess:
    """The fake server in a child process; gives its token and base url."""

    def __init__(self, latency: float) -> None:
        self._mine, theirs = multiprocessing.Pipe()
        self._process = multiprocessing.Process(
            target=serve_fake, args=(latency, theirs), daemon=True
        )

    def __enter__(self) -> tuple[str, str]:
        self._process.start()
        token, base_url = self._mine.recv()
        return str(token), str(base_url)

    def __exit__(self, *exc_info: object) -> None:
        self._process.terminate()
        self._process.join()


@dataclass
class Variant:
    keepalive: int
    calls: str
    cpu_per_request: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"keepalive={self.keepalive:<3} calls={self.calls}"


def make_bot(token: str, base_url: str, keepalive: int) -> ExtBot[None]:
    """An ExtBot as the bot builds it, with ``keepalive`` idle connections kept."""
    original = bot_app.KEEPALIVE_CONNECTIONS
    bot_app.KEEPALIVE_CONNECTIONS = keepalive
    try:
        request = bot_app.bot_request()
    finally:
        bot_app.KEEPALIVE_CONNECTIONS = original
    return ExtBot(token, base_url=base_url, request=request)


async def run_variant(fake: tuple[str, str], variant: Variant, args: argparse.Namespace) -> None:
    bot = make_bot(*fake, variant.keepalive)
    await bot.initialize()
    counter = itertools.count()
    pictures = [picture(seed) for seed in range(4)]
    raw = variant.calls == "raw"
    try:
        first = await bot.send_photo(CHAT_ID, pictures[0], caption="board")
        message_id = first.message_id

        async def cycle(worker: int) -> None:
            n = next(counter)
            png = pictures[n % len(pictures)]
            caption = f"<b>turn</b> {n} of worker {worker}"
            if raw:
                await raw_calls.edit_message_media(
                    bot,
                    InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
                    chat_id=CHAT_ID,
                    message_id=message_id,
                )
                await raw_calls.edit_message_caption(
                    bot, CHAT_ID, message_id, caption=caption + ".", parse_mode=ParseMode.HTML
                )
            else:
                await bot.edit_message_media(
                    InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
                    chat_id=CHAT_ID,
                    message_id=message_id,
                )
                await bot.edit_message_caption(
                    CHAT_ID, message_id, caption=caption + ".", parse_mode=ParseMode.HTML
                )
            # The bot's texts go through PTB's own method either way (only boards are raw).
            await bot.send_message(CHAT_ID, caption)

        async def burst() -> None:
            await asyncio.gather(*(bot.get_me() for _ in range(args.burst)))

        async def worker(index: int, cycles: int) -> None:
            for _ in range(cycles):
                await cycle(index)

        await burst()  # connections opened as in a busy moment, then the measured part
        cpu = time.process_time()
        wall = time.perf_counter()
        requests = 0
        for _ in range(args.bursts):
            await asyncio.gather(*(worker(w, args.cycles) for w in range(args.workers)))
            requests += 3 * args.workers * args.cycles
            await burst()
            requests += args.burst
        spent = time.process_time() - cpu
        variant.cpu_per_request.append(spent / requests)
        print(
            f"  {variant.name}: {spent / requests * 1e3:.2f} ms CPU/request, "
            f"{requests} requests in {time.perf_counter() - wall:.1f} s",
            flush=True,
        )
    finally:
        await bot.shutdown()


async def measure(fake: tuple[str, str], args: argparse.Namespace) -> list[Variant]:
    variants = [Variant(k, c) for k in args.keepalive for c in args.calls]
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}/{args.rounds}", flush=True)
        order = variants if round_ % 2 == 0 else variants[::-1]
        for variant in order:
            await run_variant(fake, variant, args)
    return variants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keepalive", type=int, nargs="+", default=[20, 8])
    parser.add_argument("--calls", nargs="+", choices=["objects", "raw"], default=["objects"])
    parser.add_argument("--latency", type=float, default=0.03, help="the fake's seconds/answer")
    parser.add_argument("--workers", type=int, default=3, help="boards drawn at once")
    parser.add_argument("--cycles", type=int, default=15, help="boards per worker per burst")
    parser.add_argument("--bursts", type=int, default=4)
    parser.add_argument("--burst", type=int, default=24, help="requests sent at once")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with FakeProcess(args.latency) as fake:
        variants = asyncio.run(measure(fake, args))
    print("median CPU per request (the client's process only):")
    for variant in variants:
        print(f"  {variant.name}: {statistics.median(variant.cpu_per_request) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
