"""Whole games between two members of a group, played only through the board's buttons.

The dice are scripted (seeded), so each run replays the same game; a 1-point match ends
after one game, and its result must reach the caption and the players' statistics.
"""

from __future__ import annotations

import pytest

from .conftest import FINISHED_GAME_BUTTONS, BotUnderTest, play_until, start_match
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow


async def _play_one_point_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, options: str
) -> str:
    board = await start_match(bot, group, anna, bruno, options)
    sent_before = len(bot.tg.chat_messages(group, from_bot=True))
    board = await play_until(
        bot, group, (anna, bruno), {"Rivincita"}, label=f"whole game: /sfida {options}"
    )
    # The whole game happened in one message: no other message was posted meanwhile.
    assert len(bot.tg.chat_messages(group, from_bot=True)) == sent_before
    assert board.button_texts == ["Rivincita", *FINISHED_GAME_BUTTONS]
    assert board.edits > 10
    return board.caption or ""


async def _assert_recorded(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, winner: str
) -> None:
    assert await bot.stored(group) is None  # the match is archived: the chat is free again
    for user in (anna, bruno):
        reaction = await bot.say(group, user, "/statistiche")
        (text,) = reaction.texts()
        assert f"Statistiche di {user.first_name}" in text
        assert "Partite: 1" in text
        won = user.first_name == winner
        assert f"Vittorie: {1 if won else 0} ({100 if won else 0}%)" in text
        assert f"Sconfitte: {0 if won else 1}" in text
    (board_text,) = (await bot.say(group, anna, "/classifica")).texts()
    assert board_text.index(winner) < board_text.index(({"Anna", "Bruno"} - {winner}).pop())


def _winner(caption: str) -> str:
    """The winner of a single game, as its result line names them (no match line follows)."""
    assert "🏆" not in caption, caption
    line = next(line for line in caption.splitlines() if " vince la partita" in line)
    return line.split()[0]


async def test_whole_classic_game_through_buttons_records_result(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    caption = await _play_one_point_match(bot, group, anna, bruno, "classico 1")
    assert caption.startswith("Backgammon classico · Partita singola")
    assert "vince la partita:" in caption
    winner = _winner(caption)
    assert "vince il match" not in caption
    await _assert_recorded(bot, group, anna, bruno, winner)


async def test_whole_long_game_through_buttons_records_result(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    caption = await _play_one_point_match(bot, group, anna, bruno, "lungo 1")
    assert caption.startswith("Backgammon lungo · Partita singola")
    assert "vince la partita: Oin, 1 punto." in caption or "vince la partita: Mars, 2 punti." in (
        caption
    )
    winner = _winner(caption)
    assert "vince la serie" not in caption
    await _assert_recorded(bot, group, anna, bruno, winner)
