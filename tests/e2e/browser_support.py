"""Real headless Chromium for the Mini App's tests (Playwright driving the system's build).

Playwright's own browser download is never used: the browser is the system package
(``chromium``), which ``scripts/test.sh`` installs where it is missing. Telegram's
``telegram-web-app.js`` is replaced by a stub carrying launch data signed with the test
token, and every other address outside the bot's server is refused, so the page is shown to
work from the bot's server alone.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from playwright.async_api import Browser, Page, Route, async_playwright

TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
#: A phone's screen (CSS pixels), as Telegram shows a Mini App on most phones.
PHONE = {"width": 390, "height": 760}
#: The pages' script errors and console errors, for the tests to show (and to refuse).
ERRORS: list[str] = []


def chromium_path() -> str:
    """The system's Chromium (``CHROMIUM`` overrides); scripts/test.sh installs it."""
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(found):
        raise RuntimeError("Chromium is missing: apt-get install -y chromium (scripts/test.sh)")
    return found


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=chromium_path(),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield browser
        finally:
            await browser.close()


def telegram_stub(init: str, start_param: str | None, theme: dict[str, str] | None) -> str:
    """What telegram-web-app.js gives the page: the signed launch data and the theme."""
    unsafe: dict[str, Any] = {}
    if start_param is not None:
        unsafe["start_param"] = start_param
    web_app = {
        "initData": init,
        "initDataUnsafe": unsafe,
        "themeParams": theme or {},
        "colorScheme": "dark" if theme and theme.get("bg_color", "#fff") < "#8" else "light",
    }
    return (
        "window.Telegram = {WebApp: Object.assign(" + json.dumps(web_app) + ", {"
        "ready() {}, expand() {}, onEvent() {}, HapticFeedback: {impactOccurred() {}}"
        "})};"
    )


async def open_page(
    browser: Browser,
    url: str,
    init: str,
    *,
    start_param: str | None = None,
    theme: dict[str, str] | None = None,
) -> Page:
    """A phone-sized page of the Mini App, opened as Telegram would open it."""
    context = await browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=False)
    local = url.split("/app/", maxsplit=1)[0]

    async def route(r: Route) -> None:
        if r.request.url == TELEGRAM_JS:
            await r.fulfill(
                status=200,
                content_type="application/javascript",
                body=telegram_stub(init, start_param, theme),
            )
        elif r.request.url.startswith(local):
            await r.continue_()
        else:  # no CDN, no other site: the page works from the bot's server alone
            await r.abort()

    await context.route("**/*", route)
    page = await context.new_page()
    page.on("pageerror", lambda exc: ERRORS.append(str(exc)))
    page.on("console", lambda m: ERRORS.append(m.text) if m.type == "error" else None)
    await page.goto(url)
    return page


async def version_of(page: Page) -> int:
    raw = await page.evaluate("document.body.dataset.version || ''")
    return int(raw) if raw else -1


async def wait_version(page: Page, version: int, timeout: float = 10_000) -> None:
    """Until the page shows the table at ``version`` (or later)."""
    await page.wait_for_function(
        "v => Number(document.body.dataset.version || -1) >= v", arg=version, timeout=timeout
    )


async def centre(page: Page, point: int) -> tuple[float, float]:
    """Where a board point (0: the bottom tray, 25: the bar) is on the screen."""
    for _ in range(50):  # the board is redrawn whole on each event: ask again if it was
        box = await page.locator(f'rect.point-hit[data-point="{point}"]').bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        await page.wait_for_timeout(20)
    raise AssertionError(f"point {point} is not on the page")


async def drag(page: Page, src: int, dst: int, *, pause: Any = None) -> int:
    """Drag a checker from board point ``src`` to ``dst``; returns how many destinations were
    lit while the checker was held (``pause`` runs then, e.g. a screenshot)."""
    x0, y0 = await centre(page, src)
    x1, y1 = await centre(page, dst)
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    lit = await page.locator("rect.target").count()
    if pause is not None:
        await pause()
    await page.mouse.move(x1, y1, steps=4)
    await page.mouse.up()
    return lit
