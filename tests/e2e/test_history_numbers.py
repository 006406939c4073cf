"""History commands name a game by its number and keep working once the match is over:
``/partita`` lists the match's games with their numbers, ``/rivedi 2``, ``/verifica 2``
and ``/posizione 2`` act on that game, and a bad number is answered in Italian."""

from __future__ import annotations

from bot.finished import kept_game
from engine import match_id_for, position_id_for

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def _two_games_then_left(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """A match to 5: Bruno wins two games by a dropped double, then Anna leaves it."""
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 5")
    for game in (1, 2):
        await bot.say(group, anna, "/mossa 8/5 6/5")
        await bot.press(group, bruno, bot.board(group), "Raddoppia")
        await bot.press(group, anna, bot.board(group), "Rinuncio")
        assert "Bruno vince la partita" in (bot.board(group).caption or "")
        if game == 1:
            bot.dice.queue_opening(3, 1)
            await bot.press(group, bruno, bot.board(group), "Partita successiva")
    asked = await bot.say(group, anna, "/abbandona")
    (sent,) = asked.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    await bot.press(group, anna, prompt, "Lascia il match")
    assert await bot.repo.load_game(group.id) is None
    assert board.message_id


async def test_history_commands_take_a_game_number_after_the_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _two_games_then_left(bot, group, anna, bruno)

    (listed,) = (await bot.say(group, anna, "/partita")).texts()
    assert "Partite finite del match (finito): Anna contro Bruno, match a 5 punti" in listed
    assert "1. vince Bruno: vittoria semplice, 1 punto" in listed
    assert "2. vince Bruno: vittoria semplice, 1 punto" in listed
    assert "/rivedi 2" in listed

    sent = (await bot.say(group, anna, "/rivedi 1")).of("sendAnimation")
    assert sent and "partita 1:" in str(sent[0].params.get("caption")), sent
    sent = (await bot.say(group, anna, "/rivedi 2")).of("sendAnimation")
    assert sent and "partita 2:" in str(sent[0].params.get("caption")), sent

    records = {
        row.game_number: kept_game(row.doc).record for row in await bot.repo.last_records(group.id)
    }
    for number in (1, 2):
        final = records[number].final_state()
        (text,) = (await bot.say(group, bruno, f"/posizione {number}")).texts()
        assert position_id_for(final) in text and match_id_for(final) in text, text

    (text,) = (await bot.say(group, anna, "/verifica 2")).texts()
    assert "non ha usato dadi verificabili" in text  # scripted dice: found, nothing to check

    for command in ("/rivedi 3", "/verifica 7", "/posizione 0"):
        (text,) = (await bot.say(group, anna, command)).texts()
        name = command.split()[0]
        assert "non c'è: di questo match sono finite le partite da 1 a 2" in text, text
        assert f"{name} 2" in text, text
    for command in ("/rivedi due", "/posizione 1 2", "/verifica -1"):
        (text,) = (await bot.say(group, anna, command)).texts()
        assert "non è il numero di una partita" in text, text


async def test_partita_lists_the_finished_games_of_the_match_in_progress(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 5")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    await bot.press(group, bruno, bot.board(group), "Partita successiva")
    reaction = await bot.say(group, anna, "/partita")
    assert reaction.of("sendPhoto")  # the board first
    (listed,) = reaction.texts()
    assert "Partite finite del match (in corso)" in listed
    assert "1. vince Bruno: vittoria semplice, 1 punto" in listed
