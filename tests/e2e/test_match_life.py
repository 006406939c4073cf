"""A match left between games never locks its chat: the pause between games runs like a
turn, then the next game starts by itself; a player still away then loses on time, which
in a match forfeits the whole match (the table's rules)."""

from __future__ import annotations

import pytest

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest

TURN_SECONDS = 6


def _caption_with(text: str):  # type: ignore[no-untyped-def]
    def matches(request: RecordedRequest) -> bool:
        media = request.params.get("media") or {}
        caption = str(media.get("caption", "")) + str(request.params.get("caption", ""))
        return request.method in ("editMessageMedia", "sendPhoto") and text in caption

    return matches


async def _first_game_dropped(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """A match to 3 whose first game Anna loses by dropping Bruno's double."""
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, board, "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    assert "Bruno vince la partita" in (bot.board(group).caption or "")


@pytest.mark.parametrize("bot_options", [{"turn_seconds": TURN_SECONDS}])
async def test_idle_match_starts_its_next_game_then_ends_by_forfeit(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    await _first_game_dropped(bot, group, anna, bruno)
    caption = bot.board(group).caption or ""
    assert "La partita successiva comincia da sola tra 6 secondi" in caption

    # Nobody presses "Partita successiva": it starts by itself once the pause is over.
    await bot.tg.wait_for(_caption_with("è cominciata da sola"), timeout=3 * TURN_SECONDS)
    caption = bot.board(group).caption or ""
    assert "Tocca a" in caption and "per il turno" in caption

    # Nobody plays it either: the player on turn runs out of time, and forfeits the match.
    await bot.tg.wait_for(_caption_with("vince il match"), timeout=3 * TURN_SECONDS)
    await bot.tg.settle(quiet=0.2)
    assert await bot.repo.load_game(group.id) is None  # the chat is free again
    reaction = await bot.say(group, carla, "/sfida")
    assert "C'è già una partita" not in " ".join(reaction.texts())


async def test_leaving_the_match_between_games_forfeits_it(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _first_game_dropped(bot, group, anna, bruno)
    board = bot.board(group)
    asked = await bot.say(group, anna, "/abbandona")
    assert [r.method for r in asked.requests if r.params.get("chat_id")] == ["sendMessage"]
    (sent,) = asked.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    assert "vuoi lasciare il match?" in (prompt.text or "")
    assert prompt.button_texts == ["Lascia il match", "No, continuo"]
    refused = await bot.press(group, bruno, prompt, "Lascia il match")
    assert refused.alert is not None
    assert bot.board(group).caption == board.caption  # untouched until the answer

    await bot.press(group, anna, prompt, "Lascia il match")
    assert bot.tg.message(group, prompt.message_id).button_texts == []
    caption = bot.board(group).caption or ""
    assert "Anna lascia il match: Bruno lo vince a tavolino." in caption
    assert "Bruno vince il match a 3 punti, 3-0" in caption
    assert "Rivincita" in bot.board(group).button_texts
    assert await bot.repo.load_game(group.id) is None  # the chat is free again


async def test_leaving_the_series_during_a_game_forfeits_it(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "lungo 3")
    asked = await bot.say(group, bruno, "/abbandona")
    (sent,) = asked.of("sendMessage")
    prompt = bot.tg.message(group, sent.result["message_id"])
    assert "Lascia la serie" in prompt.button_texts
    await bot.press(group, bruno, prompt, "Lascia la serie")
    caption = bot.board(group).caption or ""
    assert "Bruno lascia la serie: Anna la vince a tavolino." in caption
    assert "Anna vince la serie" in caption
    assert await bot.repo.load_game(group.id) is None
    (text,) = (await bot.say(group, anna, "/statistiche")).texts()
    assert "Partite: 1" in text


async def test_a_computer_match_left_between_games_frees_the_private_chat(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Facile", "3 punti"):
        await bot.press(chat, anna, tg.message(chat, menu_id), label)
    (sent,) = (await bot.say(chat, anna, "/abbandona")).of("sendMessage")
    prompt = tg.message(chat, sent.result["message_id"])
    await bot.press(chat, anna, prompt, "Vittoria semplice · 1 punto")  # the computer accepts
    caption = bot.board(chat).caption or ""
    assert "Partita successiva" in bot.board(chat).button_texts
    assert "La partita successiva comincia da sola" in caption  # the pause has a clock

    (sent,) = (await bot.say(chat, anna, "/abbandona")).of("sendMessage")
    prompt = tg.message(chat, sent.result["message_id"])
    await bot.press(chat, anna, prompt, "Lascia il match")
    assert "Anna lascia il match" in (bot.board(chat).caption or "")
    assert await bot.repo.load_game(chat.id) is None
    again = await bot.say(chat, anna, "/gioca")
    assert again.of("sendMessage") and "in corso" not in " ".join(again.texts())
