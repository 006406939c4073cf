"""Every refusal of a board button says why: a button the bot never drew, one of a game
that is over, one of a board replaced by a newer one, a closed prompt's, and a roll while
a double waits for its answer."""

from __future__ import annotations

from bot.texts import messages as T

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def test_forged_and_finished_buttons_are_refused_with_their_reason(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    stored = await bot.stored(group)
    assert stored is not None

    for data in ("hello", "g:1", f"g:{stored.game_id}:{stored.version}:zz"):
        forged = await bot.press(group, anna, board, data=data, forge=True)
        assert forged.alert == T.ALERT_BUTTON_UNKNOWN, data

    roll = f"g:{stored.game_id}:{stored.version}:r"
    await bot.press(group, anna, board, "Abbandona")
    prompt = bot.tg.chat_messages(group)[-1]
    assert prompt.message_id != board.message_id
    level = prompt.data_for(prompt.button_texts[0])
    await bot.press(group, anna, prompt, "No, continuo")
    closed = await bot.press(group, anna, prompt, data=level, forge=True)
    assert closed.alert == T.ALERT_PROMPT_CLOSED

    # The game ends (Anna resigns it): its buttons belong to a game that is over.
    await bot.press(group, anna, bot.board(group), "Abbandona")
    prompt = bot.tg.chat_messages(group)[-1]
    await bot.press(group, anna, prompt, prompt.button_texts[0])
    await bot.press(group, bruno, bot.tg.message(group, prompt.message_id), "Accetto l'abbandono")
    assert await bot.repo.load_game(group.id) is None
    over = await bot.press(group, anna, bot.board(group), data=roll, forge=True)
    assert over.alert == T.ALERT_BUTTON_GAME_OVER


async def test_an_old_board_replaced_by_partita_says_so(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    old = await start_match(bot, group, anna, bruno, "classico 1")
    old_data = old.data_for("8/5")
    await bot.say(group, bruno, "/partita")
    await bot.press(group, anna, bot.board(group), "8/5")
    refused = await bot.press(group, anna, old, data=old_data, forge=True)
    assert refused.alert == T.ALERT_BUTTON_OLD_BOARD


async def test_a_roll_while_a_double_waits_names_the_double(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, board, "Raddoppia")
    stored = await bot.stored(group)
    assert stored is not None
    roll = f"g:{stored.game_id}:{stored.version}:r"
    refused = await bot.press(group, anna, bot.board(group), data=roll, forge=True)
    assert refused.alert == T.ALERT_DOUBLE_PENDING
