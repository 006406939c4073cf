"""Resigning: an offer in a short prompt of its own that names the resigner, states the exact
price, survives the opponent's moves, and loses its buttons once answered or moot."""

from __future__ import annotations

from bot.game.table import OfferStage
from engine.notation import format_play

from .conftest import FINISHED_GAME_BUTTONS, BotUnderTest, start_match, turn_holder
from .fake_telegram import FakeChat, FakeUser, StoredMessage


def _prompt(bot: BotUnderTest, group: FakeChat, reaction) -> StoredMessage:
    (sent,) = reaction.of("sendMessage")
    return bot.tg.message(group, sent.result["message_id"])


async def test_classic_offer_out_of_turn_survives_a_move_and_charges_what_it_announced(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3")
    assert "Tocca ad Anna (" in (board.caption or "")
    caption_before = board.caption

    prompt = _prompt(bot, group, await bot.say(group, bruno, "/abbandona"))
    assert "Bruno" in (prompt.text or "") and "vuoi abbandonare?" in (prompt.text or "")
    # Bruno has checkers in Anna's home and nothing off: every level makes sense.
    assert prompt.button_texts == [
        "Vittoria semplice · 1 punto",
        "Gammon · 2 punti",
        "Backgammon · 3 punti",
        "Lascia il match",  # in a match, the whole match can be left too
        "No, continuo",
    ]
    board = bot.board(group)
    assert board.caption == caption_before  # the board is not the prompt
    assert not [t for t in board.button_texts if t in prompt.button_texts]
    refused = await bot.press(group, anna, prompt, "Gammon · 2 punti")
    assert refused.alert == "Solo chi abbandona sceglie qui."

    await bot.press(group, bruno, prompt, "Gammon · 2 punti")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.text == (
        "🏳 Bruno propone di abbandonare: Anna vince 2 punti (gammon). Anna, accetti?"
    )
    assert prompt.button_texts == ["Accetto l'abbandono", "Rifiuto, si gioca"]
    # The prompt says it: the board is left untouched until the offer is answered.
    assert bot.board(group).caption == caption_before
    refused = await bot.press(group, bruno, prompt, "Accetto l'abbandono")
    assert refused.alert == "Tocca all'avversario accettare o rifiutare il tuo abbandono."

    # Anna plays on first (a step, then her whole move): the offer and its prompt stay.
    await bot.press(group, anna, bot.board(group), "8/5")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    assert "Tocca a Bruno (" in (bot.board(group).caption or "")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == ["Accetto l'abbandono", "Rifiuto, si gioca"]

    await bot.press(group, anna, prompt, "Accetto l'abbandono")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == []  # tidied
    assert prompt.text == "Bruno abbandona: Anna vince 2 punti (gammon)."
    caption = bot.board(group).caption or ""
    assert "Bruno abbandona: Anna vince 2 punti (gammon)." in caption
    assert "Punteggio: Anna 2 - 0 Bruno (match a 3 punti)" in caption
    assert bot.board(group).button_texts == ["Partita successiva", *FINISHED_GAME_BUTTONS]
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Punti vinti: 0 · persi: 2" in text


async def test_classic_offer_declined_then_the_board_button_and_cancel(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    board = bot.board(group)
    roll_keyboard = board.button_texts
    assert "Abbandona" in roll_keyboard

    prompt = _prompt(bot, group, await bot.press(group, bruno, board, "Abbandona"))
    await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    accept = bot.tg.message(group, prompt.message_id).data_for("Accetto l'abbandono")
    await bot.press(group, anna, prompt, "Rifiuto, si gioca")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == []
    assert prompt.text == "Anna rifiuta l'abbandono di Bruno: si continua a giocare."
    board = bot.board(group)
    assert board.button_texts == roll_keyboard
    assert "propone di abbandonare" not in (board.caption or "")
    stale = await bot.press(group, anna, prompt, data=accept, forge=True)  # a stale client
    assert stale.alert == "Questa proposta è già chiusa: il pulsante non vale più."

    second = _prompt(bot, group, await bot.press(group, bruno, bot.board(group), "Abbandona"))
    await bot.press(group, bruno, second, "No, continuo")
    second = bot.tg.message(group, second.message_id)
    assert second.button_texts == []
    assert second.text == "Bruno non abbandona: si continua a giocare."
    assert (await bot.table(group)).open_offer is None


async def test_resigners_own_move_withdraws_the_offer_and_tidies_the_prompt(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    prompt = _prompt(bot, group, await bot.say(group, anna, "/abbandona"))
    await bot.press(group, anna, prompt, "Vittoria semplice · 1 punto")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == []
    assert prompt.text == "Anna ha ripreso a giocare: la proposta di abbandono è ritirata."
    table = await bot.table(group)
    assert table.open_offer is None and table.resign is not None
    assert table.resign.stage is OfferStage.WITHDRAWN


async def test_an_offer_left_open_is_tidied_when_its_resigner_drops_a_double(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    prompt = _prompt(bot, group, await bot.say(group, anna, "/abbandona"))  # Anna waits
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == []
    assert prompt.text == "Anna ha ripreso a giocare: la proposta di abbandono è ritirata."
    caption = bot.board(group).caption or ""
    assert "Anna rinuncia e cede 1 punto: Bruno vince la partita." in caption


async def test_long_resign_by_position_from_the_waiting_player_survives_a_move(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(bot, group, anna, bruno, "lungo 3")
    board = bot.board(group)
    mover = turn_holder(board.caption or "", (anna, bruno))
    assert mover is not None
    waiting = bruno if mover is anna else anna
    move_buttons = [t for t in board.button_texts if "/" in t]
    assert move_buttons

    prompt = _prompt(bot, group, await bot.say(group, waiting, "/abbandona"))
    loser, winner = waiting.first_name, mover.first_name
    # Nothing borne off yet: with Mars scoring the resigner loses 2 points.
    assert prompt.text == (f"🏳 {loser}, vuoi abbandonare? {winner} vince 2 punti (Mars). Confermi?")
    assert prompt.button_texts == ["Sì, abbandono", "No, continuo", "Lascia la serie"]
    board = bot.board(group)
    assert [t for t in board.button_texts if "/" in t] == move_buttons
    assert "Sì, abbandono" not in board.button_texts
    refused = await bot.press(group, mover, prompt, "Sì, abbandono")
    assert refused.alert == "Solo chi abbandona sceglie qui."

    # The player on turn moves: the prompt is still there and still answerable.
    state = (await bot.table(group)).state
    play = state.legal_plays()[0]
    await bot.say(group, mover, f"/mossa {format_play(play)}")
    assert bot.tg.message(group, prompt.message_id).button_texts == [
        "Sì, abbandono",
        "No, continuo",
        "Lascia la serie",
    ]

    await bot.press(group, waiting, prompt, "Sì, abbandono")
    prompt = bot.tg.message(group, prompt.message_id)
    assert prompt.button_texts == []
    assert prompt.text == f"{loser} abbandona: {winner} vince 2 punti (Mars)."
    caption = bot.board(group).caption or ""
    assert f"{loser} abbandona: {winner} vince 2 punti (Mars)." in caption
    assert "Punteggio: " in caption


async def test_resign_value_announced_equals_the_one_charged_with_unconfirmed_steps(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    await bot.press(group, anna, board, "8/5")  # a step, not confirmed
    prompt = _prompt(bot, group, await bot.press(group, anna, bot.board(group), "Abbandona"))
    levels = prompt.button_texts[:-1]
    await bot.press(group, anna, prompt, levels[0])
    offer = bot.tg.message(group, prompt.message_id).text or ""
    assert "Bruno vince 1 punto (vittoria semplice)" in offer
    await bot.press(group, bruno, prompt, "Accetto l'abbandono")
    assert await bot.stored(group) is None  # a one-game match: archived
    caption = bot.board(group).caption or ""
    assert "Anna abbandona: Bruno vince 1 punto (vittoria semplice)." in caption
