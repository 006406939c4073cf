"""An answered press is a saved press, with one worker or two.

Two applications share one Redis as two webhook workers do: each update is handed to one of
them in turn (a load balancer) or to both (Telegram retrying, a balancer replaying). A
player's quick second tap on a board not yet redrawn races the first tap's save on the
other worker; it must be applied to the fresh game, never answered and then dropped.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from telegram import Update

from bot.adapters.ptb_types import BotApp
from bot.app import build_application
from bot.config import Settings
from bot.game.table import Table
from bot.services import of_app
from engine import Phase
from storage import GameRepository

from .conftest import (
    BotUnderTest,
    ScriptedDice,
    choose_step,
    game_action,
    start_match,
    turn_holder,
)
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage

PAIRS = 100
ANSWER_TIMEOUT = 10.0


class Worker:
    """One webhook worker: the real application, fed updates by the test instead of HTTP."""

    def __init__(self, tg: FakeTelegram, repo: GameRepository, seed: int) -> None:
        settings = Settings(
            token=tg.token,
            base_url=tg.base_url,
            rate_limit=False,
            turn_seconds=600,
            auto_confirm=False,
        )
        self.app: BotApp = build_application(
            settings, repo, dice=ScriptedDice(seed), rng=random.Random(seed)
        )

    async def start(self) -> None:
        await self.app.initialize()
        await self.app.start()

    async def stop(self) -> None:
        await self.app.stop()
        await self.app.shutdown()

    async def deliver(self, update: dict[str, Any]) -> None:
        await self.app.update_queue.put(Update.de_json(update, self.app.bot))

    async def idle(self) -> None:
        await asyncio.wait_for(self.app.update_queue.join(), ANSWER_TIMEOUT)
        await asyncio.wait_for(of_app(self.app).painter.drain(), ANSWER_TIMEOUT)


async def deliver(workers: list[Worker], tg: FakeTelegram, turn: int, *, both: bool) -> None:
    """The queued updates, each to the next worker in turn, or to both."""
    for n, update in enumerate(tg.pop_updates()):
        if both:
            first = (turn + n) % 2
            await asyncio.gather(workers[first].deliver(update), workers[1 - first].deliver(update))
        else:
            await workers[(turn + n) % 2].deliver(update)


async def answered(tg: FakeTelegram, query_id: str) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_TIMEOUT
    while (answer := tg.callback_answer(query_id)) is None:
        assert loop.time() < deadline, f"press {query_id} never answered"
        await asyncio.sleep(0.005)
    return answer


def step_of(data: str) -> tuple[int, int, int]:
    src, dst, die = (int(x) for x in data.split(":")[4:7])
    return src, dst, die


async def quick_pair(
    tg: FakeTelegram, repo: GameRepository, group: FakeChat, board: StoredMessage, user: FakeUser
) -> list[tuple[str, tuple[int, int, int]]] | None:
    """Two step buttons of one board, the second still legal after the first (None: none)."""
    stored = await repo.load_game(group.id)
    assert stored is not None
    state = Table.from_doc(stored.doc).state
    if state.phase is not Phase.MOVE:
        return None
    legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
    first = choose_step(board, legal)
    if first is None:
        return None
    after = state.step(step_of(first))
    legal_after = {(s.src, s.dst, s.die) for s in after.legal_steps()}
    second = choose_step(board, legal_after)
    if second is None:
        return None
    return [(first, step_of(first)), (second, step_of(second))]


Press = tuple[str, tuple[int, int, int] | None]


async def next_presses(
    tg: FakeTelegram,
    repo: GameRepository,
    group: FakeChat,
    board: StoredMessage,
    players: tuple[FakeUser, FakeUser],
) -> tuple[FakeUser, list[Press]] | None:
    """Who presses what next: a quick pair of steps when the roll allows one, else the one
    button that moves the game on (None: the match is over)."""
    user = turn_holder(board.caption or "", players)
    actions = {game_action(d): d for d in board.callback_data}
    if "x" in actions:
        return players[0], [(actions["x"], None)]
    if user is None:
        return None
    for action in ("c", "r"):
        if action in actions:
            return user, [(actions[action], None)]
    pair = await quick_pair(tg, repo, group, board, user)
    if pair is not None:
        return user, [(data, step) for data, step in pair]
    step = choose_step(board)
    assert step is not None, board.button_texts
    return user, [(step, None)]


@pytest.mark.parametrize("both", [False, True], ids=["round-robin", "duplicated"])
async def test_quick_step_pairs_on_two_workers_are_never_lost(
    tg: FakeTelegram,
    repo: GameRepository,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    both: bool,
) -> None:
    workers = [Worker(tg, repo, seed) for seed in (1, 2)]
    for worker in workers:
        await worker.start()
    try:
        players = (anna, bruno)
        tg.send_message(group, anna, "/sfida classico 25 senza cubo")
        await deliver(workers, tg, 0, both=both)
        await asyncio.gather(*(w.idle() for w in workers))
        card = tg.last_bot_message(group)
        for user, label in ((anna, "Lancia la sfida"), (bruno, "Accetta")):
            query = tg.press(group, user, card, card.data_for(label))
            await deliver(workers, tg, 1, both=both)
            await answered(tg, query)
            await asyncio.gather(*(w.idle() for w in workers))
            card = tg.message(group, card.message_id)

        pairs = acknowledged = lost = 0
        turn = 0
        while pairs < PAIRS:
            turn += 1
            board = [m for m in tg.chat_messages(group, from_bot=True) if m.photo][-1]
            chosen = await next_presses(tg, repo, group, board, players)
            if chosen is None:
                break  # the match is over
            user, presses = chosen
            pairs += len(presses) == 2
            queries = [(tg.press(group, user, board, data), step) for data, step in presses]
            await deliver(workers, tg, turn, both=both)
            answers = [(await answered(tg, q), step) for q, step in queries]
            await asyncio.gather(*(w.idle() for w in workers))
            stored = await repo.load_game(group.id)
            assert stored is not None
            state = Table.from_doc(stored.doc).state
            played = [(s.src, s.dst, s.die) for s in state.steps]
            for answer, step in answers:
                if step is None or answer.get("show_alert"):
                    continue
                acknowledged += 1
                if step not in played:
                    lost += 1
                else:
                    played.remove(step)
        print(f"\n{pairs} quick pairs, {acknowledged} steps acknowledged, {lost} lost")
        assert pairs >= PAIRS // 2
        assert lost == 0
    finally:
        for worker in workers:
            await worker.stop()


async def test_a_board_whose_sending_timed_out_is_adopted(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(bot, group, anna, bruno)
    old_board = bot.board(group)
    tg.delay_reply("sendPhoto", 6.0)  # past PTB's 5 s read timeout: the board exists
    await bot.say(group, anna, "/partita")
    stored = await bot.stored(group)
    assert stored is not None and stored.board_message_id == old_board.message_id
    board = bot.board(group)
    assert board.message_id != old_board.message_id  # posted, its id never learned
    await play_until_redrawn(bot, group, (anna, bruno))  # and the game goes on
    after = await bot.stored(group)
    assert after is not None
    assert after.version > stored.version
    assert after.board_message_id == board.message_id
    await play_until_redrawn(bot, group, (anna, bruno))
    assert bot.board(group).message_id == board.message_id  # kept up to date, not replaced


async def play_until_redrawn(
    bot: BotUnderTest, group: FakeChat, players: tuple[FakeUser, FakeUser]
) -> None:
    """The player on turn presses until the board is redrawn (a turn ends)."""
    for _ in range(10):
        board = bot.board(group)
        user = turn_holder(board.caption or "", players)
        assert user is not None
        actions = {game_action(d): d for d in board.callback_data}
        state = (await bot.table(group)).state
        legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
        data = actions.get("c") or actions.get("r") or choose_step(board, legal)
        assert data is not None
        reaction = await bot.press(group, user, board, data=data)
        assert reaction.alert is None, reaction.alert
        if reaction.of("editMessageMedia"):
            return
    raise AssertionError("the board was never redrawn")


async def test_a_board_ahead_of_a_rolled_back_game_is_redrawn(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(bot, group, anna, bruno)
    key = bot.repo.keys.game(group.id)
    snapshot = await bot.repo.client.hgetall(key)
    await play_until_redrawn(bot, group, (anna, bruno))
    # Redis restarted from an older snapshot: the saved game is behind the board on screen.
    await bot.repo.client.delete(key)
    await bot.repo.client.hset(key, mapping=snapshot)
    older = await bot.stored(group)
    assert older is not None

    board = bot.board(group)
    user = turn_holder(board.caption or "", (anna, bruno)) or anna
    reaction = await bot.press(group, user, board, data=board.callback_data[0])
    assert reaction.of("editMessageMedia"), reaction.methods  # redrawn, not refused forever
    board = bot.board(group)
    assert all(
        d.split(":")[2] == str(older.version) for d in board.callback_data if d.startswith("g:")
    )
    await play_until_redrawn(bot, group, (anna, bruno))  # and the game goes on
