"""CPU of the bot's Bot API requests, on the client's side only.

Runs the fake Bot API server (``tests/e2e/fake_telegram.py``) in a child process and a PTB
``ExtBot`` with one of the HTTP clients below (the bot's pool size and idle connections) in
this one, then sends what a board costs: an ``editMessageMedia`` with a fresh picture of
about 100 KB, an ``editMessageCaption`` and a ``sendMessage``, from a few workers at once,
with a burst of concurrent requests now and then (many boards redrawn together open extra
connections, as in the bot). Only this process's CPU (``time.process_time``) is counted:
the fake's work is left out.

Then each kind of request alone (``--workers`` x ``--cycles`` x ``--bursts`` of it): a
``sendPhoto`` of a fresh picture, an ``editMessageMedia``, and a small form like an
``answerCallbackQuery`` (a ``sendChatAction``: a chat and a word, ``true`` back).

Variants, run in turn (alternating, ``--rounds`` times) so that a loaded machine weighs on
each alike:

- ``--client httpx aiohttp``: PTB's ``HTTPXRequest`` as the bot built it before (idle
  connections bounded, bodies read whole before sending), or the bot's aiohttp client
  (``bot.adapters.aiohttp_request``);
- ``--keepalive N ...``: idle connections kept;
- ``--calls objects`` (PTB's methods, building a ``Message`` from each answer) or ``raw``
  (the painter's way, ``bot.adapters.raw_calls``: only the few fields it needs) for the
  board's two calls; the ``sendMessage`` goes through PTB's method in both, as the bot's do.

    python -m benchmarks.requests --client httpx aiohttp --keepalive 8
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

import httpx
from PIL import Image
from telegram import InputMediaPhoto
from telegram.constants import ChatAction, ParseMode
from telegram.ext import ExtBot
from telegram.request import BaseRequest, HTTPXRequest

from bot import app as bot_app
from bot.adapters import raw_calls
from bot.adapters.aiohttp_request import AiohttpRequest
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


KINDS = ("sendPhoto", "editMessageMedia", "small")


@dataclass
class Variant:
    client: str
    keepalive: int
    calls: str
    cpu_per_request: list[float] = field(default_factory=list)
    cpu_per_kind: dict[str, list[float]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"client={self.client:<7} keepalive={self.keepalive:<3} calls={self.calls}"


async def _send_body_whole(request: httpx.Request) -> None:
    """The httpx hook the bot used: a body of known, modest length read whole, so that it
    leaves in one write rather than part by part."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) <= 1 << 20:
        await request.aread()


def make_request(client: str, keepalive: int) -> BaseRequest:
    """The bot's request client of kind ``client``, ``keepalive`` idle connections kept."""
    if client == "aiohttp":
        return AiohttpRequest(
            connection_pool_size=bot_app.REQUEST_POOL_SIZE, keepalive_connections=keepalive
        )
    limits = httpx.Limits(
        max_connections=bot_app.REQUEST_POOL_SIZE, max_keepalive_connections=keepalive
    )
    return HTTPXRequest(
        connection_pool_size=bot_app.REQUEST_POOL_SIZE,
        httpx_kwargs={"limits": limits, "event_hooks": {"request": [_send_body_whole]}},
    )


def make_bot(token: str, base_url: str, client: str, keepalive: int) -> ExtBot[None]:
    """An ExtBot with the bot's request client of kind ``client``."""
    return ExtBot(token, base_url=base_url, request=make_request(client, keepalive))


async def run_variant(fake: tuple[str, str], variant: Variant, args: argparse.Namespace) -> None:
    bot = make_bot(*fake, variant.client, variant.keepalive)
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

        async def one(kind: str) -> None:
            n = next(counter)
            if kind == "sendPhoto":
                await bot.send_photo(CHAT_ID, pictures[n % len(pictures)], caption=f"board {n}")
            elif kind == "editMessageMedia":
                await bot.edit_message_media(
                    InputMediaPhoto(pictures[n % len(pictures)], caption=f"turn {n}"),
                    chat_id=CHAT_ID,
                    message_id=message_id,
                )
            else:
                await bot.send_chat_action(CHAT_ID, ChatAction.TYPING)

        async def repeat(kind: str, times: int) -> None:
            for _ in range(times):
                await one(kind)

        for kind in KINDS:
            times = args.cycles * args.bursts
            cpu = time.process_time()
            await asyncio.gather(*(repeat(kind, times) for _ in range(args.workers)))
            spent = (time.process_time() - cpu) / (times * args.workers)
            variant.cpu_per_kind.setdefault(kind, []).append(spent)
        print(
            "    "
            + ", ".join(f"{kind} {variant.cpu_per_kind[kind][-1] * 1e3:.2f} ms" for kind in KINDS),
            flush=True,
        )
    finally:
        await bot.shutdown()


async def measure(fake: tuple[str, str], args: argparse.Namespace) -> list[Variant]:
    variants = [
        Variant(client, k, c) for client in args.client for k in args.keepalive for c in args.calls
    ]
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}/{args.rounds}", flush=True)
        order = variants if round_ % 2 == 0 else variants[::-1]
        for variant in order:
            await run_variant(fake, variant, args)
    return variants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--client", nargs="+", choices=["httpx", "aiohttp"], default=["httpx", "aiohttp"]
    )
    parser.add_argument("--keepalive", type=int, nargs="+", default=[bot_app.KEEPALIVE_CONNECTIONS])
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
        kinds = ", ".join(
            f"{kind} {statistics.median(variant.cpu_per_kind[kind]) * 1e3:.2f}" for kind in KINDS
        )
        print(
            f"  {variant.name}: mix {statistics.median(variant.cpu_per_request) * 1e3:.2f} ms; "
            f"{kinds} ms"
        )


if __name__ == "__main__":
    main()
