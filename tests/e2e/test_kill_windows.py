"""kill -9 right after a press is answered: the answered press is in the stored game.

The real ``python -m bot`` plays against the computer on its hardest level, whose thinking
follows the press that ends the player's turn. The process is killed the moment that press
is answered (the computer is still thinking, the board not yet redrawn), restarted, and the
game must hold the confirmed turn; the next press brings the board and the computer back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.game.table import Table
from engine import Phase
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StoredGame

from .conftest import choose_step, game_action
from .fake_telegram import FakeChat, FakeTelegram, FakeUser
from .processes import start_bot

pytestmark = pytest.mark.slow

START_TIMEOUT = 60.0
KILLS = 3


def descendants(pid: int) -> list[int]:
    """The processes a process started (the computer's workers), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


async def kill(proc: asyncio.subprocess.Process) -> None:
    """kill -9 the bot, then the workers it leaves behind (they are not under test here)."""
    left = descendants(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    for pid in left:  # they hold the bot's output pipes: wait() would wait for them
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    await asyncio.wait_for(proc.communicate(), 30)


async def answered(tg: FakeTelegram, query_id: str, timeout: float = 30.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (answer := tg.callback_answer(query_id)) is None:
        assert loop.time() < deadline, "the press was never answered"
        await asyncio.sleep(0.002)
    return answer


async def press(tg: FakeTelegram, chat: FakeChat, user: FakeUser, label: str) -> dict[str, Any]:
    message = tg.last_bot_message(chat)
    answer = await answered(tg, tg.press(chat, user, message, message.data_for(label)))
    await tg.settle(quiet=0.3, timeout=30)
    return answer


async def test_an_answered_press_survives_a_kill_while_the_computer_thinks(
    own_valkey: EmbeddedValkey,
) -> None:
    client = aioredis.Redis.from_url(own_valkey.url)
    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION))
    async with FakeTelegram() as tg:
        env = {"TELEGRAM_TOKEN": tg.token, "TELEGRAM_BASE_URL": tg.base_url}
        env["REDIS_URL"] = own_valkey.url
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        proc = await start_bot(env)
        try:
            await tg.wait_for("setMyCommands", timeout=START_TIMEOUT)
            tg.send_message(chat, anna, "/gioca")
            await tg.wait_for("sendMessage", timeout=10)
            for label in ("Backgammon classico", "Difficile", "1 partita"):
                await press(tg, chat, anna, label)
            await tg.wait_for("sendPhoto", timeout=30)

            kills = 0
            for _ in range(200):
                if kills == KILLS:
                    break
                stored = await repo.load_game(chat.id)
                assert stored is not None
                table = Table.from_doc(stored.doc)
                if table.state.is_over:
                    break
                data = await next_press(tg, chat, table)
                if data is None:
                    await asyncio.sleep(0.05)  # the computer is still playing
                    continue
                query = tg.press(chat, anna, tg.last_bot_message(chat), data)
                answer = await answered(tg, query)
                if not ends_turn(table, data) or answer.get("show_alert"):
                    await tg.settle(quiet=0.2, timeout=30)
                    continue
                await kill(proc)  # the computer is thinking about its reply
                kills += 1
                kept = await repo.load_game(chat.id)
                assert kept is not None
                assert kept.version > stored.version, "an answered confirmation was lost"
                proc = await start_bot(env)
                await tg.wait_for("setMyCommands", since=len(tg.requests), timeout=START_TIMEOUT)
                await heal(tg, chat, anna, repo, kept)
            assert kills == KILLS
        finally:
            await kill(proc)
            await client.aclose()


def ends_turn(table: Table, data: str) -> bool:
    """Does this press end the player's turn (the computer thinks next)?"""
    action = game_action(data)
    if action == "c":
        return True
    if action != "s":
        return False
    src, dst, die = (int(x) for x in data.split(":")[4:7])
    return not table.state.step((src, dst, die)).legal_steps()


async def next_press(tg: FakeTelegram, chat: FakeChat, table: Table) -> str | None:
    """The player's next button on the board, if it is the player's turn."""
    board = tg.last_bot_message(chat)
    actions = {game_action(d): d for d in board.callback_data}
    state = table.state
    if table.actor.is_computer:
        return None
    for action in ("c", "r"):
        if action in actions:
            return actions[action]
    if state.phase is not Phase.MOVE:
        return None
    return choose_step(board, {(s.src, s.dst, s.die) for s in state.legal_steps()})


async def heal(
    tg: FakeTelegram, chat: FakeChat, anna: FakeUser, repo: GameRepository, kept: StoredGame
) -> None:
    """After the restart a press on the old board brings the computer's move and the board."""
    board = tg.last_bot_message(chat)
    data = next(d for d in board.callback_data if game_action(d))
    await answered(tg, tg.press(chat, anna, board, data))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while True:
        stored = await repo.load_game(chat.id)
        assert stored is not None
        table = Table.from_doc(stored.doc)
        if not table.actor.is_computer or table.state.is_over:
            break
        assert loop.time() < deadline, "the computer never played after the restart"
        await asyncio.sleep(0.05)
    await tg.settle(quiet=0.3, timeout=30)
    assert stored.version > kept.version
