"""How the bot words turns, rolls and results: prepositions before names, dice high first,
a tied opening rolled again, match scores as players write them, and what /classifica and
/statistiche count."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser

BACKGAMMON = "Backgammon · 3 punti"


async def _resign(
    bot: BotUnderTest, group: FakeChat, resigner: FakeUser, opponent: FakeUser, level: str
) -> None:
    """The resigner offers ``level`` in the resign prompt and the opponent accepts it."""
    reaction = await bot.press(group, resigner, bot.board(group), "Abbandona")
    (sent,) = reaction.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    await bot.press(group, resigner, prompt, level)
    await bot.press(
        group, opponent, bot.tg.message(group, prompt.message_id), "Accetto l'abbandono"
    )


async def test_turns_say_ad_before_a_and_dice_come_high_first(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(4, 4)  # a tie: both roll again
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    caption = board.caption or ""
    assert "Tiro d'apertura: 4 per entrambi, si tira di nuovo." in caption
    assert "ritira" not in caption  # "si ritira" reads as "withdraws"
    assert "Tocca ad Anna (Bianco)" in caption and "Tocca a Anna" not in caption

    bot.dice.queue_rolls((2, 5))  # Bruno's roll, low die first as it fell
    await bot.say(group, anna, "/mossa 8/5 6/5")
    caption = bot.board(group).caption or ""
    assert "Tocca a Bruno (Nero)" in caption
    assert "5-2" in caption and "2-5" not in caption


async def test_a_match_won_past_its_target_names_target_and_score(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 2")
    await _resign(bot, group, bruno, anna, BACKGAMMON)  # a backgammon: 3 points
    caption = bot.board(group).caption or ""
    assert "🏆 Anna vince il match a 2 punti, 3-0!" in caption
    assert "3 a 0" not in caption


async def test_leaderboard_during_a_match_says_when_it_counts(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 7")
    await _resign(bot, group, bruno, anna, BACKGAMMON)  # 3-0, the match goes on
    assert "Partita successiva" in bot.board(group).button_texts

    (ranking,) = (await bot.say(group, anna, "/classifica")).texts()
    assert "un match o una serie conta quando finisce" in ranking
    assert "/statistiche" in ranking
    (stats,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1" in stats  # the finished game already counts there
    assert "Punteggio Elo" not in stats  # no match finished: no rating yet


async def test_stats_name_the_elo_rating_in_italian_and_explain_it(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    await _resign(bot, group, bruno, anna, BACKGAMMON)

    (stats,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Rating" not in stats
    assert "Punteggio Elo: Classico 15" in stats
    assert "si parte da 1500" in stats
    (ranking,) = (await bot.say(group, anna, "/classifica")).texts()
    assert ranking.startswith("Classifica · Classico\n1. Anna: 15")
    assert "punteggio Elo (si parte da 1500)" in ranking
