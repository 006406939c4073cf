"""Buttons that belong to someone act only for them: the hint (💡) is the player on
turn's, the analysis (📊) on a finished game's board is its players'. Anyone else is
refused with a reason, and nothing is sent (the settings message has its own test in
test_forged_data)."""

from __future__ import annotations

from bot.texts import messages as T
from bot.texts import review as R

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def test_the_hint_button_is_the_player_on_turns_only(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    board = await start_match(bot, group, anna, bruno, "suggerimenti")
    assert R.BTN_HINT in board.button_texts
    for user, why in ((carla, T.ALERT_NOT_A_PLAYER), (bruno, R.ALERT_HINT_NOT_NOW)):
        refused = await bot.press(group, user, board, R.BTN_HINT)
        assert refused.alert == why
        assert refused.methods == ["answerCallbackQuery"]


async def test_the_analysis_button_is_the_players_only(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    await start_match(bot, group, anna, bruno)
    reaction = await bot.say(group, anna, "/abbandona")
    prompt = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(group, anna, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, bruno, prompt, "Accetto l'abbandono")
    board = bot.board(group)
    assert R.BTN_ANALYSIS in board.button_texts
    refused = await bot.press(group, carla, board, R.BTN_ANALYSIS)
    assert refused.alert == R.ALERT_ANALYSIS_NOT_YOURS
    assert refused.methods == ["answerCallbackQuery"]
