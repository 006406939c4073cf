"""Two webhook workers behind one Redis: the supported way to scale out.

Both run the real ``python -m bot`` in webhook mode. Every update is delivered to both of
them (Telegram's retries, a load balancer replaying a request), in alternating order: each
press must act exactly once and the board must end showing the saved game.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from typing import Any

import aiohttp
import pytest
import redis.asyncio as aioredis

from bot.game.table import Table
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry

from .conftest import choose_step, game_action, turn_holder
from .fake_telegram import FakeTelegram
from .processes import deliver_webhook, free_port, start_webhook_worker, wait_listening

pytestmark = pytest.mark.slow

SECRET = "scale-out-secret"
PRESSES = 24


async def _deliver_to_both(
    http: aiohttp.ClientSession, ports: list[int], update: dict[str, Any], first: int
) -> None:
    """The same update to both workers at once, the ``first`` one a moment earlier."""
    order = ports[first:] + ports[:first]

    await asyncio.gather(*(deliver_webhook(http, port, update, SECRET) for port in order))


async def _board_caught_up(redis_url: str, chat_id: int, timeout: float = 90.0) -> None:
    """Until the saved game's board shows its version (or a first step of its turn)."""
    client = aioredis.Redis.from_url(redis_url)
    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    try:
        while True:
            stored = await repo.load_game(chat_id)
            if stored is None or stored.shown_version == stored.version:
                return
            table = Table.from_doc(stored.doc)
            shown = stored.shown_version or 0
            if table.state.steps and shown >= table.turn_version:
                return
            assert loop.time() < deadline, "the board never caught up with the game"
            await asyncio.sleep(0.2)
    finally:
        await client.aclose()


async def test_two_webhook_workers_apply_each_press_once(own_valkey: EmbeddedValkey) -> None:
    ports = [free_port(), free_port()]
    async with FakeTelegram() as tg, aiohttp.ClientSession() as http:
        anna, bruno = tg.user(1, "Anna"), tg.user(2, "Bruno")
        group = tg.group(-1009, "Circolo")
        workers = [await start_webhook_worker(tg, own_valkey.url, port, SECRET) for port in ports]
        try:
            await asyncio.gather(*(wait_listening(port) for port in ports))

            async def act(first: int, reaction: str, query_id: str | None = None) -> None:
                start = len(tg.requests)
                for update in tg.pop_updates():
                    await _deliver_to_both(http, ports, update, first)

                def reacted(r: Any) -> bool:
                    if r.method != reaction:
                        return False
                    return query_id is None or r.params.get("callback_query_id") == query_id

                await tg.wait_for(reacted, since=start, timeout=30)
                await tg.settle(quiet=0.3, timeout=30)

            tg.send_message(group, anna, "/sfida classico 1")
            await act(0, "sendMessage")
            card = tg.last_bot_message(group)
            tg.press(group, anna, card, card.data_for("Lancia la sfida"))
            await act(1, "editMessageText")
            card = tg.message(group, card.message_id)
            tg.press(group, bruno, card, card.data_for("Accetta"))
            await act(1, "sendPhoto")

            pressed: list[str] = []
            for n in range(PRESSES):
                board = [m for m in tg.chat_messages(group, from_bot=True) if m.photo][-1]
                labels = board.button_texts
                user = turn_holder(board.caption or "", (anna, bruno))
                if user is None or not labels:
                    break  # the game is over
                if "✅ Conferma" in labels:
                    data = board.data_for("✅ Conferma")
                elif "🎲 Tira i dadi" in labels:
                    data = board.data_for("🎲 Tira i dadi")
                else:
                    data = choose_step(board) or board.callback_data[0]
                query_id = tg.press(group, user, board, data)
                pressed.append(query_id)
                await act(n % 2, "answerCallbackQuery", query_id)
            # The group's budget (20 a minute, shared by the workers) may hold the last
            # redraw back: the workers are stopped once the board has caught up.
            await _board_caught_up(own_valkey.url, group.id)
        finally:
            for proc in workers:
                proc.send_signal(signal.SIGTERM)
            logs = [(await asyncio.wait_for(p.communicate(), 30))[1].decode() for p in workers]

        assert all(p.returncode == 0 for p in workers), logs
        assert not any("error while handling" in log for log in logs), logs
        answers = Counter(
            str(r.params.get("callback_query_id"))
            for r in tg.requests
            if r.method.lower() == "answercallbackquery"
        )
        assert len(pressed) >= 10
        assert all(answers[q] == 1 for q in pressed), answers
        cards = [m for m in tg.chat_messages(group, from_bot=True) if "Accetta" in m.button_texts]
        assert len(cards) <= 1  # one /sfida, one card (its buttons go once accepted)

        client = aioredis.Redis.from_url(own_valkey.url)
        try:
            repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION))
            stored = await repo.load_game(group.id)
        finally:
            await client.aclose()
        assert stored is not None
        table = Table.from_doc(stored.doc)
        board = tg.message(group, stored.board_message_id or 0)
        # The board shows the saved game; only a first step may wait for the turn's end to
        # be drawn (its keyboard still plays the rest of the turn).
        shown = stored.shown_version
        assert shown is not None
        assert shown == stored.version or (table.state.steps and shown >= table.turn_version)
        assert all(
            data.startswith(f"g:{stored.game_id}:{shown}:")
            for data in board.callback_data
            if game_action(data)
        )
        moves_made = sum(1 for note in table.notes if "ha giocato" in note)
        assert moves_made >= 1 or table.state.steps
