"""The Mini App measured in a real headless Chromium: step-to-opponent latency, requests to
Telegram per turn, a whole group game's duration at a fast pace, and the README's screenshots.

    python -m benchmarks.miniapp [--stretch] [--max-turns N] [--shots docs]

Two phone-sized pages are the two players of a group game ("classico 1") and play it by
dragging checkers (the first legal step each time, as fast as the pages allow); a third page
watches. Each step's latency is measured from the mouse button's release on the player's
page to the moment the opponent's page shows the saved step (its server-sent event). The
requests to the fake Bot API (with Telegram's flood limits on) are counted per confirmed
turn. A second, short game with the cube produces the "double offered" screenshot.

The bot, the fake Bot API and Valkey run in this process and its children (Chromium runs
apart): the CPU time reported is this process's (user + sys), on a machine that may be
loaded by other work.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page

from bot.computer import ComputerPool
from bot.miniapp.view import table_id
from engine import Phase
from engine.serialize import SCHEMA_VERSION
from storage import GameRepository, SchemaRegistry, StorageConfig
from storage.connect import make_client
from storage.embedded import EmbeddedValkey
from tests.e2e.browser_support import centre, chromium, open_page, wait_version
from tests.e2e.conftest import start_match
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.miniapp_support import MiniAppBot, home_stretch, server_state

PHOTO_METHODS = ("sendPhoto", "editMessageMedia")
DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


async def _step(
    page: Page, other: Page, src: int, dst: int, version: int, shot: Path | None
) -> float:
    """Drag one checker; seconds from the release to the opponent's page showing it."""
    x0, y0 = await centre(page, src)
    x1, y1 = await centre(page, dst)
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=3)
    if shot is not None:
        await page.screenshot(path=str(shot))
    await page.mouse.move(x1, y1, steps=2)
    start = time.perf_counter()
    await page.mouse.up()
    await wait_version(other, version + 1)
    return time.perf_counter() - start


async def play(
    mini: MiniAppBot, browser: Browser, args: argparse.Namespace, shots: Path | None
) -> dict[str, Any]:
    tg = mini.tg
    anna, bruno, carla = tg.user(101, "Anna"), tg.user(102, "Bruno"), tg.user(103, "Carla")
    group = tg.group(-100123, "Circolo")
    await start_match(mini, group, anna, bruno, "classico 1")
    if args.stretch:
        stored = await mini.stored(group)
        assert stored is not None
        await mini.repo.save_game(stored, home_stretch(await mini.table(group)).to_doc())
    ref = table_id(group.id)
    pages = {
        u.id: await open_page(browser, mini.base, mini.init(u, start_param=ref), start_param=ref)
        for u in (anna, bruno, carla)
    }
    first = await server_state(mini, anna, group)
    for page in pages.values():
        await wait_version(page, first["version"])
    if shots is not None:
        mover = anna if first["on_turn"] else bruno
        await pages[mover.id].screenshot(path=str(shots / "miniapp-opening.png"))
    latencies: list[float] = []
    turns = 0
    start_requests = len(tg.requests)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    highlight_shot = shots / "miniapp-move.png" if shots is not None else None
    state = first
    while turns < args.max_turns:
        state = await server_state(mini, anna, group, first["game"])
        if state["over"]:
            break
        user, other = (anna, bruno) if state["on_turn"] else (bruno, anna)
        page, other_page = pages[user.id], pages[other.id]
        state = await server_state(mini, user, group, first["game"])
        while state["legal"]:
            step = state["legal"][0]
            latencies.append(
                await _step(
                    page, other_page, step["from"], step["to"], state["version"], highlight_shot
                )
            )
            highlight_shot = None
            state = await server_state(mini, user, group, first["game"])
        if state["can"]["confirm"]:
            await page.locator("#btn-confirm").click()
            await wait_version(other_page, state["version"] + 1)
            turns += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    # The last turns' photo may still wait for the group's budget of 20 edits a minute
    # (a game played this fast uses all of it): up to a minute, before the count.
    await asyncio.wait_for(mini.painter.drain(), 90)
    await mini.idle()
    requests = [r for r in tg.calls(since=start_requests)]
    photos = [r for r in requests if r.method in PHOTO_METHODS]
    if shots is not None and state["over"]:
        for page in pages.values():
            await wait_version(page, state["version"])
        await pages[carla.id].screenshot(path=str(shots / "miniapp-end.png"))
    for page in pages.values():
        await page.context.close()
    return {
        "latencies": latencies,
        "turns": turns,
        "requests": len(requests),
        "photos": len(photos),
        "wall": wall,
        "cpu": cpu,
        "over": state["over"],
    }


async def double_offered(mini: MiniAppBot, browser: Browser, shots: Path) -> None:
    """A money game: the first mover confirms, the next one doubles from the page; the
    opponent's page (dark theme) shows the offer."""
    tg = mini.tg
    dora, ezio = tg.user(201, "Dora"), tg.user(202, "Ezio")
    group = tg.group(-100456, "Bar Sport")
    await start_match(mini, group, dora, ezio, "classico 3")
    ref = table_id(group.id)
    pages = {
        dora.id: await open_page(
            browser, mini.base, mini.init(dora, start_param=ref), start_param=ref
        ),
        ezio.id: await open_page(
            browser, mini.base, mini.init(ezio, start_param=ref), start_param=ref, theme=DARK
        ),
    }
    state = await server_state(mini, dora, group)
    user = dora if state["on_turn"] else ezio
    state = await server_state(mini, user, group)
    page = pages[user.id]
    await wait_version(page, state["version"])
    while state["legal"]:
        s = state["legal"][0]
        x0, y0 = await centre(page, s["from"])
        x1, y1 = await centre(page, s["to"])
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        await page.mouse.move(x1, y1, steps=4)
        await page.mouse.up()
        await wait_version(page, state["version"] + 1)
        state = await server_state(mini, user, group)
    await page.locator("#btn-confirm").click()
    await wait_version(page, state["version"] + 1)
    doubler = ezio if user is dora else dora
    state = await server_state(mini, doubler, group)
    if state["phase"] == Phase.ROLL.name.lower() and state["can"]["double"]:
        await wait_version(pages[doubler.id], state["version"])
        await pages[doubler.id].locator("#btn-double").click()
        other = pages[user.id]
        await wait_version(other, state["version"] + 1)
        await other.screenshot(path=str(shots / "miniapp-double.png"))
    for p in pages.values():
        await p.context.close()


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms"


async def run(args: argparse.Namespace) -> None:
    shots = Path(args.shots) if args.shots else None
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tavola-miniapp-") as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "valkey")
        await asyncio.to_thread(valkey.start)
        client = make_client(valkey.url)
        repo = GameRepository(
            client,
            SchemaRegistry(current=SCHEMA_VERSION),
            StorageConfig(prefix=f"tavola-bench:{uuid.uuid4().hex[:8]}:v1"),
        )
        pool = ComputerPool(1)
        try:
            async with FakeTelegram(enforce_limits=True) as tg, chromium() as browser:
                mini = MiniAppBot(tg, repo, computer=pool, rate_limited=True)
                await mini.start()
                try:
                    result = await play(mini, browser, args, shots)
                    if shots is not None:
                        await double_offered(mini, browser, shots)
                finally:
                    await mini.stop()
        finally:
            pool.close()
            await client.aclose()
            await asyncio.to_thread(valkey.stop)
    lat = result["latencies"]
    turns = max(result["turns"], 1)
    print(
        f"group game 'classico 1'{' (home stretch)' if args.stretch else ''}, fake Bot API "
        f"with Telegram's flood limits; {len(lat)} steps, {result['turns']} turns, "
        f"{'to its end' if result['over'] else 'stopped early'}"
    )
    print(
        f"step to opponent's page   p50 {_ms(lat, 0.5)}   p95 {_ms(lat, 0.95)}   "
        f"max {_ms(lat, 1.0)}   mean {statistics.fmean(lat) * 1000 if lat else 0:.0f} ms"
    )
    print(
        f"requests to Telegram      {result['requests']} ({result['requests'] / turns:.2f}/turn), "
        f"photo sends and edits {result['photos']} ({result['photos'] / turns:.2f}/turn)"
    )
    print(
        f"game duration             {result['wall']:.1f} s wall, "
        f"{result['cpu']:.1f} s CPU in this process ({result['wall'] / turns:.2f} s/turn)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stretch", action="store_true", help="start near the end (quick)")
    parser.add_argument("--max-turns", type=int, default=400)
    parser.add_argument("--shots", default="", help="save the README's screenshots here")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
