"""Places the bot loses mid-game: removed from a group, blocked by the player of a private
game against the computer. The game is adjourned (kept, its clock stopped), nothing is
retried and nothing is logged as an error; when the bot is back, the game resumes with a
fresh turn clock: in a group with /partita, in a private chat as soon as the player writes.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.game.table import Table
from bot.texts import messages as T
from bot.views import presenter
from storage import StoredGame

from .conftest import (
    BotUnderTest,
    choose_step,
    logged_troubles,
    requests_to,
    start_match,
    turn_holder,
)
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow

# Short enough to wait for, long enough for a press or two within a turn on a busy machine.
TURN_SECONDS = 4


async def _a_step(bot: BotUnderTest, chat: FakeChat, user: FakeUser) -> None:
    """The player on turn rolls if they must, then takes one step; no alert."""
    board = bot.board(chat)
    if "🎲 Tira i dadi" in board.button_texts:
        await bot.press(chat, user, board, "🎲 Tira i dadi")
        board = bot.board(chat)
    state = (await bot.table(chat)).state
    data = choose_step(board, {(s.src, s.dst, s.die) for s in state.legal_steps()})
    assert data is not None, board.button_texts
    reaction = await bot.press(chat, user, board, data=data)
    assert reaction.alert is None, reaction.alert


def presenter_caption(stored: StoredGame) -> str:
    """The caption the stored game's board shows."""
    return presenter.caption(Table.from_doc(stored.doc))


async def _fresh_clock(bot: BotUnderTest, chat: FakeChat, since: float) -> None:
    due = await bot.repo.get_deadline(chat.id)
    assert due is not None
    assert since + TURN_SECONDS - 0.5 <= due <= time.time() + TURN_SECONDS + 0.5


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_kicked_mid_game_nothing_is_retried_and_the_game_resumes_when_added_back(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    await start_match(bot, group, anna, bruno, "classico 1")
    before = await bot.stored(group)
    assert before is not None and await bot.repo.get_deadline(group.id) is not None

    start = len(bot.tg.requests)
    bot.tg.remove_bot_from_group(group, carla)
    await bot.idle()
    await asyncio.sleep(TURN_SECONDS + 1)  # past the reminder and the deadline
    await bot.idle()
    assert requests_to(group, bot.tg.calls(since=start)) == []
    assert logged_troubles(caplog) == []
    assert await bot.stored(group) == before  # adjourned: kept as it was
    assert await bot.repo.get_deadline(group.id) is None  # its clock stopped

    bot.tg.add_bot_to_group(group, carla, old="kicked", new="member")
    await bot.idle()
    greeting = bot.tg.last_bot_message(group)
    assert greeting.text is not None and "/partita" in greeting.text
    assert T.GAME_WAITING_HERE.split(":")[0] in greeting.text

    resumed_at = time.time()
    reaction = await bot.say(group, anna, "/partita")
    assert reaction.of("sendPhoto")
    await _fresh_clock(bot, group, resumed_at)
    user = turn_holder(bot.board(group).caption or "", (anna, bruno))
    assert user is not None
    await _a_step(bot, group, user)
    # The fresh clock runs out: the game ends on time, as any other.
    await bot.tg.wait_for(
        lambda r: r.method == "editMessageMedia" and "Tempo scaduto" in str(r.params),
        timeout=3 * TURN_SECONDS,
    )
    await bot.idle()
    assert await bot.stored(group) is None
    assert len(await bot.repo.leaderboard("classic", group.id)) == 2
    assert logged_troubles(caplog) == []


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_a_kick_the_bot_missed_costs_one_refused_request_and_no_lost_game(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    await start_match(bot, group, anna, bruno, "classico 1")
    before = await bot.stored(group)
    start = len(bot.tg.requests)
    bot.tg.remove_bot_from_group(group, carla, notify=False)
    bot.expect_errors("bot was kicked from the group chat")
    await asyncio.sleep(TURN_SECONDS + 1.5)  # the reminder is refused; the deadline never comes
    await bot.idle()
    (refused,) = requests_to(group, bot.tg.calls(since=start))
    assert refused.method == "sendMessage" and not refused.ok
    assert logged_troubles(caplog) == []
    assert await bot.stored(group) == before
    assert await bot.repo.unreachable(group.id) is not None

    # A restart (another process) knows it too: no timer comes back for the adjourned game.
    await bot.restart()
    start = len(bot.tg.requests)
    await asyncio.sleep(1)
    await bot.idle()
    assert requests_to(group, bot.tg.calls(since=start)) == []
    assert await bot.repo.unreachable(group.id) is not None

    # Added back (this time the bot hears of it): /partita resumes the game.
    bot.tg.add_bot_to_group(group, carla, old="kicked", new="member")
    await bot.idle()
    resumed_at = time.time()
    assert (await bot.say(group, bruno, "/partita")).of("sendPhoto")
    await _fresh_clock(bot, group, resumed_at)


async def test_a_player_who_blocks_the_bot_finds_the_game_waiting_when_they_write_again(
    bot: BotUnderTest, anna: FakeUser, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    chat = bot.tg.private_chat(anna)
    bot.dice.queue_opening(6, 1)  # Anna begins
    menu = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Medio", "1 partita"):
        await bot.press(chat, anna, menu, label)
    while "✅ Conferma" not in bot.board(chat).button_texts:
        await _a_step(bot, chat, anna)
    board = bot.board(chat)

    # She confirms her move and blocks the bot at once: the computer answers, and its move
    # cannot be drawn. One refused edit tells the bot; nothing is retried.
    start = len(bot.tg.requests)
    bot.query_ids.append(bot.tg.press(chat, anna, board, board.data_for("✅ Conferma")))
    bot.tg.block(anna)
    bot.expect_errors("bot was blocked by the user")
    await bot.idle()
    await asyncio.sleep(3)
    await bot.idle()
    refused = [r for r in requests_to(chat, bot.tg.calls(since=start)) if not r.ok]
    assert len(refused) <= 1, [(r.method, r.error) for r in refused]
    assert logged_troubles(caplog) == []
    adjourned = await bot.stored(chat)
    assert adjourned is not None  # kept, the computer's move saved
    caption = presenter_caption(adjourned)
    assert "<b>Computer</b> ha giocato" in caption and "Tocca ad <b>Anna</b>" in caption

    # She writes again (her client unblocks the bot first): the board comes back at the
    # bottom of the chat, the old one points to it, and she plays on.
    reaction = await bot.say(chat, anna, "ciao")
    (posted,) = reaction.of("sendPhoto")
    assert posted.params["chat_id"] == chat.id
    assert T.BOARD_MOVED in (bot.tg.message(chat, board.message_id).caption or "")
    assert bot.board(chat).message_id == posted.result["message_id"]
    await _a_step(bot, chat, anna)
    assert logged_troubles(caplog) == []
