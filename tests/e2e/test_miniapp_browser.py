"""The Mini App in a real headless Chromium: two players of a group game play it to the end
by dragging checkers on their pages while a third member watches, the group's photo board is
redrawn once per turn, and a page opened with forged or stale launch data is refused."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, Page

from bot.computer import ComputerPool
from bot.miniapp.view import table_id
from bot.texts import miniapp as TEXTS
from engine import Phase
from storage import GameRepository

from .browser_support import ERRORS, chromium, drag, open_page, wait_version
from .conftest import start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .miniapp_support import MiniAppBot, home_stretch, server_state

pytestmark = pytest.mark.slow

PHOTO_METHODS = ("sendPhoto", "editMessageMedia")


@pytest.fixture
async def mini(
    tg: FakeTelegram, repo: GameRepository, computer: ComputerPool
) -> AsyncIterator[MiniAppBot]:
    bot = MiniAppBot(tg, repo, computer=computer)
    await bot.start()
    try:
        yield bot
        await bot.idle()
    finally:
        await bot.stop()
    assert not bot.unexpected_errors(), [(r.method, r.error) for r in bot.unexpected_errors()]


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as b:
        yield b


async def _all_at(pages: list[Page], version: int) -> None:
    for page in pages:
        try:
            await wait_version(page, version)
        except Exception:
            said = await page.locator("#message").text_content()
            shown = await page.evaluate("document.body.dataset.version")
            raise AssertionError(f"page at {shown}, not {version}: {said!r} {ERRORS}") from None


async def test_two_pages_play_a_group_game_to_the_end_by_dragging_while_a_third_watches(
    mini: MiniAppBot,
    browser: Browser,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
) -> None:
    await start_match(mini, group, anna, bruno, "classico 1")
    stored = await mini.stored(group)
    assert stored is not None
    playing = await mini.table(group)
    assert playing.state.phase is Phase.MOVE and not playing.state.steps
    await mini.repo.save_game(stored, home_stretch(playing).to_doc())
    ref = table_id(group.id)
    pages = {
        user.id: await open_page(
            browser, mini.base, mini.init(user, start_param=ref), start_param=ref
        )
        for user in (anna, bruno, carla)
    }
    everyone = list(pages.values())
    watcher = pages[carla.id]
    first = await server_state(mini, anna, group)
    await _all_at(everyone, first["version"])
    assert await watcher.locator("#controls button").count() == 0

    start = len(mini.tg.requests)
    turns = steps = 0
    for _ in range(40):
        state = await server_state(mini, anna, group, first["game"])
        if state["over"]:
            break
        user = anna if state["on_turn"] else bruno
        page = pages[user.id]
        state = await server_state(mini, user, group)
        assert state["on_turn"], state["status"]
        await _all_at(everyone, state["version"])
        while state["legal"]:
            step = state["legal"][0]
            lit = await drag(page, step["from"], step["to"])
            assert lit == len({s["to"] for s in state["legal"] if s["from"] == step["from"]})
            await _all_at(everyone, state["version"] + 1)
            state = await server_state(mini, user, group, first["game"])
            steps += 1
        if state["can"]["confirm"]:
            # The spectator's page has no buttons; the player's does.
            assert await watcher.locator("#btn-confirm").count() == 0
            await page.locator("#btn-confirm").click()
            await _all_at(everyone, state["version"] + 1)
            turns += 1
    else:
        raise AssertionError("the game did not end")
    await mini.idle()
    assert steps >= 4 and turns >= 2, (steps, turns)
    for page in everyone:
        await wait_version(page, state["version"])
        assert await page.locator("#banner").count() == 1
    # The group's photo board: once per turn at most, never per step.
    photos = [r for r in mini.tg.calls(since=start) if r.method in PHOTO_METHODS]
    assert 1 <= len(photos) <= turns, (len(photos), turns, steps)
    # The match is over and archived: the chat is free again.
    assert await mini.stored(group) is None
    assert (await mini.repo.load_finished_game(group.id, first["game"])) is not None


async def test_a_page_with_forged_or_stale_launch_data_is_refused(
    mini: MiniAppBot, browser: Browser, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(mini, group, anna, bruno, "classico 1")
    ref = table_id(group.id)
    for init in (
        mini.init(anna, start_param=ref, forge=True),
        mini.init(anna, start_param=ref, auth_date=time.time() - 3 * 86400),
    ):
        page = await open_page(browser, mini.base, init, start_param=ref)
        await page.wait_for_selector("body[data-refused='401']")
        assert await page.locator("#message").text_content() == TEXTS.REFUSED_SIGNATURE
        assert await page.locator("circle.checker").count() == 0


async def test_a_roll_in_the_page_and_in_the_chat_at_once_rolls_once(
    mini: MiniAppBot, browser: Browser, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(mini, group, anna, bruno, "classico 3")  # the cube is live: "Tira"
    state = await server_state(mini, anna, group)
    mover = anna if state["on_turn"] else bruno
    page = await open_page(
        browser, mini.base, mini.init(mover, start_param=state["table"]), start_param=state["table"]
    )
    state = await server_state(mini, mover, group)
    await wait_version(page, state["version"])
    while state["legal"]:  # the opening move, dragged
        step = state["legal"][0]
        await drag(page, step["from"], step["to"])
        await wait_version(page, state["version"] + 1)
        state = await server_state(mini, mover, group)
    await page.locator("#btn-confirm").click()
    await wait_version(page, state["version"] + 1)
    await mini.idle()
    roller = bruno if mover is anna else anna
    state = await server_state(mini, roller, group)
    roller_page = await open_page(
        browser,
        mini.base,
        mini.init(roller, start_param=state["table"]),
        start_param=state["table"],
    )
    await wait_version(roller_page, state["version"])
    board = mini.board(group)
    before = await mini.table(group)
    await roller_page.locator("#btn-roll").wait_for()
    # Both at once: the page's button clicked the moment the chat's press is sent.
    # The chat's roll may reach the page first: its button is then gone and nothing is clicked.
    clicked, press = await asyncio.gather(
        roller_page.evaluate(
            "(() => { const b = document.getElementById('btn-roll');"
            " if (b) b.click(); return Boolean(b); })()"
        ),
        mini.press(group, roller, board, "🎲 Tira i dadi"),
    )
    await wait_version(roller_page, state["version"] + 1)
    await roller_page.wait_for_selector("body:not([data-busy])")  # the page's own answer
    await mini.idle()
    after = await mini.table(group)
    assert after.rolls == before.rolls + 1, "one roll, not two"
    said = await roller_page.locator("#message").text_content()
    page_refused = bool(said) and "error" in (
        await roller_page.locator("#message").get_attribute("class") or ""
    )
    if not clicked:  # only the chat asked: its roll stands and the page refused nothing
        assert press.alert is None and not page_refused, (press.alert, said)
        return
    assert (press.alert is None) != (not page_refused), (press.alert, said)
