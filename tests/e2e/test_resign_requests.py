"""A resignation costs one group request per step: the prompt is the one message sent or
edited while the offer is asked, levelled, declined or withdrawn by a word; the board is
left untouched until the game changes, and its buttons still act."""

from __future__ import annotations

from .conftest import BotUnderTest, Reaction, requests_to, start_match
from .fake_telegram import FakeChat, FakeUser, StoredMessage


def _group_methods(group: FakeChat, reaction: Reaction) -> list[str]:
    return [r.method for r in requests_to(group, reaction.requests)]


def _prompt(bot: BotUnderTest, group: FakeChat, reaction: Reaction) -> StoredMessage:
    (sent,) = reaction.of("sendMessage")
    return bot.tg.message(group, sent.result["message_id"])


async def test_each_step_of_a_resignation_is_one_group_request(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    board = bot.board(group)
    caption, buttons = board.caption, board.button_texts

    asked = await bot.say(group, bruno, "/abbandona")
    assert _group_methods(group, asked) == ["sendMessage"]
    prompt = _prompt(bot, group, asked)
    levelled = await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    assert _group_methods(group, levelled) == ["editMessageText"]
    declined = await bot.press(group, anna, prompt, "Rifiuto, si gioca")
    assert _group_methods(group, declined) == ["editMessageText"]

    again = _prompt(bot, group, await bot.press(group, bruno, board, "Abbandona"))
    cancelled = await bot.press(group, bruno, again, "No, continuo")
    assert _group_methods(group, cancelled) == ["editMessageText"]

    # The board was never redrawn, and its buttons (drawn before the offers) still act.
    board = bot.board(group)
    assert (board.caption, board.button_texts) == (caption, buttons)
    bot.dice.queue_rolls((6, 4))
    rolled = await bot.press(group, bruno, board, "🎲 Tira i dadi")
    assert rolled.alert is None
    assert "6-4" in (bot.board(group).caption or "")
