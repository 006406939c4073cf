"""The bot as a live service: updates act once, a board behind its saved game heals, a
Redis restart between two presses goes unnoticed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.computer import ComputerPool
from bot.game import flow
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig
from storage.connect import make_client

from .conftest import LAUNCH, BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest


async def test_a_duplicated_command_acts_once(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    bot.tg.send_message(group, anna, "/sfida classico 1")
    (update,) = bot.tg.pop_updates()
    bot.tg.deliver(update)
    bot.tg.deliver(update)  # Telegram delivers the same update again
    await bot.idle()
    cards = [m for m in bot.tg.chat_messages(group, from_bot=True) if LAUNCH in m.button_texts]
    assert len(cards) == 1
    assert len(await bot.repo.list_challenges(group.id)) == 1


async def test_a_duplicated_press_acts_once_even_after_a_restart(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    bot.tg.press(group, anna, board, board.data_for("8/5"))
    (update,) = bot.tg.pop_updates()
    bot.tg.deliver(update)
    await bot.idle()
    version = (await bot.stored(group)).version  # type: ignore[union-attr]

    await bot.restart()
    bot.tg.deliver(update)  # the same press again, to a new process
    await bot.idle()
    table = await bot.table(group)
    assert [(s.src, s.dst) for s in table.state.steps] == [(8, 5)]
    assert (await bot.stored(group)).version == version  # type: ignore[union-attr]
    # The duplicate was dropped before any handler: it was answered the first time only.
    bot.query_ids.append(update["callback_query"]["id"])


async def test_a_board_behind_its_saved_game_heals_on_the_next_press(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    old_confirm_free = board.snapshot()

    # The process died between saving a step and drawing it (kill -9): storage is ahead.
    await bot.stop()
    stored = await bot.stored(group)
    assert stored is not None
    table = await bot.table(group)
    stepped = flow.apply_action(table, 0, "s", (8, 5, 3))
    assert not isinstance(stepped, flow.Refusal)
    await bot.repo.save_game(stored, stepped.to_doc())
    await bot.start()
    assert bot.board(group).snapshot() == old_confirm_free

    # A press on the old board redraws the saved state instead of a dead "not valid", even
    # when the press itself cannot be played any more (the 3 was used by 8/5).
    reaction = await bot.press(group, anna, board, "13/10")
    assert reaction.alert is not None
    assert reaction.alert.startswith("Il 3 l'hai già giocato: ora muovi col 1.")
    current = await bot.stored(group)
    assert current is not None and current.shown_version == current.version
    caption = bot.board(group).caption or ""
    assert "8/5" in caption
    assert bot.board(group).snapshot() != old_confirm_free


# --------------------------------------------------------------------------- Redis restart
async def test_a_redis_restart_between_two_presses_goes_unnoticed(
    own_valkey: EmbeddedValkey,
    tmp_path: Path,
    tg: FakeTelegram,
    computer: ComputerPool,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
) -> None:
    client: aioredis.Redis = make_client(own_valkey.url)
    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION), StorageConfig())
    bot = BotUnderTest(tg, repo, computer=computer)
    await bot.start()
    try:
        bot.dice.queue_opening(3, 1)
        board = await start_match(bot, group, anna, bruno, "classico 1")
        first = await bot.press(group, anna, board, "8/5")
        assert first.alert is None

        port = own_valkey.port
        own_valkey.stop()  # AOF keeps the game; the pooled connections die
        restarted = EmbeddedValkey(tmp_path / "valkey", port=port)
        restarted.start()
        try:
            second = await bot.press(group, anna, bot.board(group), "6/5")
            assert second.alert is None, second.alert
            table = await bot.table(group)
            assert [(s.src, s.dst) for s in table.state.steps] == [(8, 5), (6, 5)]
            assert "8/5 6/5" in (bot.board(group).caption or "")
        finally:
            await bot.stop()
            restarted.stop()
    finally:
        await bot.stop()
        await client.aclose()


# --------------------------------------------------------------------------- late answers
async def test_a_refused_answer_still_redraws_and_schedules_the_deadline(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    bot.expect_errors("query is too old")
    bot.tg.answer_max_age = 0.0  # every answer comes too late for Telegram

    await bot.press(group, anna, board, "8/5")
    assert "Mossa: 8/5" in (bot.board(group).caption or "")
    await bot.press(group, anna, bot.board(group), "6/5")
    await bot.press(group, anna, bot.board(group), "✅ Conferma")
    caption = bot.board(group).caption or ""
    assert "Tocca a Bruno" in caption
    due = await bot.repo.get_deadline(group.id)  # Bruno's turn has its deadline...
    reminder = await bot.repo.get_reminder(group.id)  # ...and its reminder
    assert due is not None and reminder is not None
    assert due - reminder == pytest.approx(300, abs=0.01)  # the first: half of a 10-minute turn
    stored = await bot.stored(group)
    assert stored is not None and stored.shown_version == stored.version


# --------------------------------------------------------------------------- chat isolation
@pytest.fixture
def bot_options(request: pytest.FixtureRequest) -> dict[str, object]:
    return {"rate_limited": "isolation" in request.node.name}


async def test_isolation_a_429_in_one_group_does_not_delay_another(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, bruno: FakeUser
) -> None:
    flooded, calm = tg.group(-301, "Rumorosa"), tg.group(-302, "Tranquilla")
    for chat in (flooded, calm):
        bot.dice.queue_opening(3, 1)
        await start_match(bot, chat, anna, bruno, "classico 1")
    bot.expect_errors("Too Many Requests")
    tg.inject_retry_after(flooded, 3.0)

    flooded_board, calm_board = bot.board(flooded), bot.board(calm)
    start = len(tg.requests)
    q1 = tg.press(flooded, anna, flooded_board, flooded_board.data_for("8/5"))
    q2 = tg.press(calm, anna, calm_board, calm_board.data_for("8/5"))

    def edit_in(chat: FakeChat) -> Callable[[RecordedRequest], bool]:
        return lambda r: r.method == "editMessageMedia" and r.ok and r.params["chat_id"] == chat.id

    # The calm group's board changes while the flooded one is still paused by its 429.
    await tg.wait_for(edit_in(calm), since=start, timeout=10)
    assert not [r for r in tg.calls(since=start) if edit_in(flooded)(r)]
    answered = {r.params["callback_query_id"] for r in tg.calls("answerCallbackQuery", since=start)}
    assert {q1, q2} <= answered  # both presses were answered at once, 429 or not
    bot.query_ids.extend([q1, q2])
    # Then the flooded group gets its board too, once its pause is over.
    await tg.wait_for(edit_in(flooded), since=start, timeout=15)
    await bot.idle()
    assert "Mossa: 8/5" in (bot.board(flooded).caption or "")
