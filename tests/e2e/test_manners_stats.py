"""Leaving a match between two games ends the match without a game of its own: the
statistics count the games really played, and the match once."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def test_leaving_between_games_counts_no_extra_game(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, board, "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    asked = await bot.say(group, anna, "/abbandona")
    (sent,) = asked.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    await bot.press(group, anna, prompt, "Lascia il match")
    assert await bot.repo.load_game(group.id) is None

    (text,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1\nVittorie: 0 (0%)\nSconfitte: 1" in text, text
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Partite: 1\nVittorie: 1 (100%)\nSconfitte: 0" in text, text
