"""A basic group upgraded to a supergroup mid-game: Telegram gives the chat a new id, and the
game, its clock and the chat's records move there; the board is posted in the supergroup and
the game is played to its end there, its result in the supergroup's leaderboard.

The move is triggered by the service messages of the upgrade, or, when the bot missed them,
by the first request refused with ``migrate_to_chat_id`` (PTB's ``ChatMigrated``).
"""

from __future__ import annotations

import pytest

from .conftest import (
    FINISHED_GAME_BUTTONS,
    BotUnderTest,
    choose_step,
    play_until,
    requests_to,
    start_match,
)
from .conftest import turn_holder as holder
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow


async def _step_data(
    bot: BotUnderTest, chat: FakeChat, players: tuple[FakeUser, FakeUser]
) -> tuple[FakeUser, str]:
    """The player on turn and a step they may take now (rolling first if they must)."""
    board = bot.board(chat)
    user = holder(board.caption or "", players)
    assert user is not None, board.caption
    if "🎲 Tira i dadi" in board.button_texts:
        await bot.press(chat, user, board, "🎲 Tira i dadi")
        board = bot.board(chat)
    state = (await bot.table(chat)).state
    legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
    data = choose_step(board, legal)
    assert data is not None, board.button_texts
    return user, data


async def test_an_upgrade_mid_turn_moves_the_game_and_it_is_played_to_its_end_there(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    players = (anna, bruno)
    await start_match(bot, group, anna, bruno, "classico 1")
    user, data = await _step_data(bot, group, players)
    await bot.press(group, user, bot.board(group), data=data)  # a step, the turn not confirmed
    before = await bot.stored(group)
    due = await bot.repo.get_deadline(group.id)
    assert before is not None and due is not None

    start = len(bot.tg.requests)
    supergroup = bot.tg.migrate_group(group, carla)
    await bot.idle()

    assert await bot.stored(group) is None and await bot.repo.get_deadline(group.id) is None
    after = await bot.stored(supergroup)
    assert after is not None
    assert (after.game_id, after.version, after.doc) == (before.game_id, before.version, before.doc)
    assert await bot.repo.get_deadline(supergroup.id) == due  # the same turn, the same clock
    requests = bot.tg.calls(since=start)
    assert requests_to(group, requests) == []  # nothing more is asked of the old group
    (posted,) = [r for r in requests_to(supergroup, requests) if r.method == "sendPhoto"]
    board = bot.board(supergroup)
    assert board.message_id == posted.result["message_id"]
    assert holder(board.caption or "", players) == user  # the turn goes on where it stood

    board = await play_until(bot, supergroup, players, {"Rivincita"})
    assert board.button_texts == ["Rivincita", *FINISHED_GAME_BUTTONS]
    assert await bot.stored(supergroup) is None
    (ranking,) = (await bot.say(supergroup, anna, "/classifica")).texts()
    assert "Anna" in ranking and "Bruno" in ranking
    # The supergroup's leaderboard holds the match; the old group's id holds nothing.
    assert len(await bot.repo.leaderboard("classic", supergroup.id)) == 2
    assert await bot.repo.leaderboard("classic", group.id) == []


async def test_an_upgrade_seen_only_in_a_refused_request_heals_the_same_way(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    players = (anna, bruno)
    await start_match(bot, group, anna, bruno, "classico 1")
    while "✅ Conferma" not in bot.board(group).button_texts:
        user, data = await _step_data(bot, group, players)
        await bot.press(group, user, bot.board(group), data=data)
    board = bot.board(group)
    user = holder(board.caption or "", players)
    assert user is not None
    # The confirmation reaches the bot after the upgrade, whose service messages it never
    # gets: the turn is saved, then redrawing the old board is refused with
    # migrate_to_chat_id.
    start = len(bot.tg.requests)
    bot.query_ids.append(bot.tg.press(group, user, board, board.data_for("✅ Conferma")))
    supergroup = bot.tg.migrate_group(group, carla, notify=False)
    bot.expect_errors("group chat was upgraded to a supergroup chat")
    await bot.idle()

    after = await bot.stored(supergroup)
    assert after is not None and await bot.stored(group) is None
    refused = [r for r in requests_to(group, bot.tg.calls(since=start)) if not r.ok]
    assert len(refused) == 1  # the one redraw that told the bot; nothing retried
    (posted,) = bot.tg.calls("sendPhoto", since=start)
    assert posted.params["chat_id"] == supergroup.id
    # The confirmed turn is kept: the other player is on turn in the supergroup.
    assert holder(bot.board(supergroup).caption or "", players) not in (None, user)

    # The service messages arriving late change nothing: the move is done once.
    start = len(bot.tg.requests)
    for chat in (group, supergroup):
        service = bot.tg.chat_messages(chat)[-1 if chat is group else 0]
        bot.tg.enqueue_update({"message": service.to_dict()})
    await bot.idle()
    assert bot.tg.calls(since=start) == []
    assert await bot.stored(supergroup) == after

    user, data = await _step_data(bot, supergroup, players)
    reaction = await bot.press(supergroup, user, bot.board(supergroup), data=data)
    assert reaction.alert is None
