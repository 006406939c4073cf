"""A chat whose stored game cannot be read is not locked for ever: the next accepted
challenge replaces the broken record, and commands meanwhile answer politely."""

from __future__ import annotations

from .conftest import BotUnderTest, post_challenge
from .fake_telegram import FakeChat, FakeUser


async def test_a_corrupted_game_is_replaced_by_the_next_accepted_challenge(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    key = bot.repo.keys.game(group.id)
    await bot.repo.client.hset(key, mapping={"v": 3, "id": 99, "doc": b"{not json"})

    (text,) = (await bot.say(group, anna, "/partita")).texts()
    assert text.startswith("Qualcosa è andato storto")

    bot.dice.queue_opening(3, 1)
    card = await post_challenge(bot, group, anna, "classico 1")
    await bot.press(group, bruno, card, "Accetta")
    stored = await bot.stored(group)
    assert stored is not None and stored.game_id != 99
    assert "Backgammon classico" in (bot.board(group).caption or "")
