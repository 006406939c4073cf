"""The Mini App's API against the real bot: who may look, who may act, and that a page's
action goes through the board's pipeline (saved, versioned, shown in the chat once per turn)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.computer import ComputerPool
from bot.miniapp.view import table_id
from bot.texts import miniapp as TEXTS
from storage import GameRepository

from .conftest import start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .miniapp_support import APP_NAME, PUBLIC_URL, MiniAppBot, server_state


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


async def _rolled(
    mini: MiniAppBot, group: FakeChat, players: tuple[FakeUser, FakeUser]
) -> tuple[FakeUser, dict[str, Any]]:
    """The player on turn, once their dice are rolled (from the page when they must roll)."""
    for user in players:
        state = await server_state(mini, user, group)
        if state["on_turn"]:
            break
    else:
        raise AssertionError("nobody on turn")
    if state["can"]["roll"]:
        status, body = await mini.api(
            user,
            "api/act",
            body={
                "table": state["table"],
                "game": state["game"],
                "version": state["version"],
                "action": "roll",
            },
        )
        assert status == 200, body
        state = body["state"]
    return user, state


async def test_forged_and_stale_launch_data_are_refused(
    mini: MiniAppBot, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(mini, group, anna, bruno)
    path = f"api/state?table={table_id(group.id)}"
    assert (await mini.api(anna, path))[0] == 200
    forged = mini.init(anna, forge=True)
    assert (await mini.api(forged, path))[0] == 401
    stale = mini.init(anna, auth_date=time.time() - 2 * 86400)
    assert (await mini.api(stale, path))[0] == 401
    tampered = mini.init(anna).replace("Anna", "Bruno")
    assert (await mini.api(tampered, path))[0] == 401
    assert (await mini.api("", path))[0] == 401


async def test_a_step_from_the_page_is_saved_and_the_chat_board_waits_for_the_turn(
    mini: MiniAppBot, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    await start_match(mini, group, anna, bruno)
    user, state = await _rolled(mini, group, (anna, bruno))
    other = bruno if user is anna else anna
    step = state["legal"][0]
    start = len(mini.tg.requests)
    body = {"table": state["table"], "game": state["game"], "version": state["version"]}
    # Neither the opponent nor a spectator may act.
    for intruder in (other, carla):
        status, answer = await mini.api(
            intruder,
            "api/act",
            body={**body, "action": "step", "args": [step["src"], step["dst"], step["die"]]},
        )
        assert status in (403, 409) and not answer["ok"]
    status, answer = await mini.api(
        user,
        "api/act",
        body={**body, "action": "step", "args": [step["src"], step["dst"], step["die"]]},
    )
    assert status == 200 and answer["ok"], answer
    assert answer["state"]["version"] == state["version"] + 1
    table = await mini.table(group)
    assert len(table.state.steps) == 1
    await mini.idle()
    # A step within the turn does not redraw the chat's photo.
    assert not [
        r for r in mini.tg.calls(since=start) if r.method in ("editMessageMedia", "sendPhoto")
    ]
    # The same version again is refused: an answer means saved, once.
    status, answer = await mini.api(
        user,
        "api/act",
        body={**body, "action": "step", "args": [step["src"], step["dst"], step["die"]]},
    )
    assert status == 409 and not answer["ok"]


async def _act(
    mini: MiniAppBot, user: FakeUser, state: dict[str, Any], action: str, *args: int
) -> tuple[int, dict[str, Any]]:
    body = {
        "table": state["table"],
        "game": state["game"],
        "version": state["version"],
        "action": action,
        "args": list(args),
    }
    return await mini.api(user, "api/act", body=body)


async def _play_turn(mini: MiniAppBot, user: FakeUser, state: dict[str, Any]) -> dict[str, Any]:
    """Play the turn from the page: the first legal step until none is left, then confirm."""
    while state["legal"]:
        step = state["legal"][0]
        status, body = await _act(mini, user, state, "step", step["src"], step["dst"], step["die"])
        assert status == 200, body
        state = body["state"]
    if state["can"]["confirm"]:
        status, body = await _act(mini, user, state, "confirm")
        assert status == 200, body
        state = body["state"]
    return state


async def test_a_chat_press_and_a_page_roll_in_the_same_turn_never_both_apply(
    mini: MiniAppBot, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(mini, group, anna, bruno, "3")  # a match: the cube is live
    user, state = await _rolled(mini, group, (anna, bruno))  # the opening roll is played
    await _play_turn(mini, user, state)
    await mini.idle()
    board = mini.board(group)
    assert "🎲 Tira i dadi" in board.button_texts, board.button_texts
    roller = bruno if user is anna else anna
    state = await server_state(mini, roller, group)
    before = await mini.table(group)
    press, (status, body) = await asyncio.gather(
        mini.press(group, roller, board, "🎲 Tira i dadi"),
        _act(mini, roller, state, "roll"),
    )
    after = await mini.table(group)
    assert after.rolls == before.rolls + 1, "one roll, not two"
    assert (press.alert is None) != (status == 200), (press.alert, status, body)


async def test_the_group_board_links_to_the_table_and_the_menu_button_opens_the_app(
    mini: MiniAppBot, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await start_match(mini, group, anna, bruno)
    (link,) = [b for b in board.buttons if b["text"] == TEXTS.OPEN_BUTTON]
    # A group cannot hold a web_app button (Telegram refuses it): a direct link instead.
    assert "web_app" not in link
    assert link["url"] == f"https://t.me/tavola_test_bot/{APP_NAME}?startapp={table_id(group.id)}"
    menu = mini.tg.menu_buttons[None]
    assert menu["type"] == "web_app" and menu["web_app"]["url"] == PUBLIC_URL


async def test_a_private_board_opens_the_table_in_place(
    mini: MiniAppBot, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    reaction = await mini.say(chat, anna, "/gioca")
    menu = tg.message(chat, reaction.of("sendMessage")[0].result["message_id"])
    await mini.press(chat, anna, menu, "Backgammon classico")
    await mini.press(chat, anna, tg.message(chat, menu.message_id), "Facile")
    await mini.press(chat, anna, tg.message(chat, menu.message_id), "1 partita")
    board = mini.board(chat)
    (button,) = [b for b in board.buttons if b["text"] == TEXTS.OPEN_BUTTON]
    assert button["web_app"]["url"] == f"{PUBLIC_URL}?table={table_id(chat.id)}"
    # The page of that table answers its player.
    status, body = await mini.api(anna, f"api/state?table={table_id(chat.id)}")
    assert status == 200 and body["state"]["seat"] == 0
