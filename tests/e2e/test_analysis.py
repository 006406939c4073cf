"""/analisi end to end: a scripted game with a planted blunder, analysed in a worker; the
blunder comes first; the answer goes privately (or to the group when both chose it), says
"in corso" when it takes time, and tells how to open the private chat when needed."""

from __future__ import annotations

import asyncio

import pytest

from bot.handlers import analysis
from bot.texts import review as R
from engine import format_play
from engine.ai import hint
from engine.ai.levels import ranked

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest

pytestmark = pytest.mark.slow


async def _finished(bot: BotUnderTest) -> None:
    """Wait for the analyses running in the background."""
    assert bot.app is not None
    await asyncio.gather(*list(analysis.running(bot.app)))
    await bot.idle()


async def _play(bot: BotUnderTest, group: FakeChat, user: FakeUser, worst: bool = False) -> str:
    """The player on turn types the best play (or the worst, planted), returns its notation."""
    state = (await bot.table(group)).state
    play = ranked(state, deep=False)[-1][0] if worst else hint(state, 1)[0][0]
    text = format_play(play)
    reaction = await bot.say(group, user, f"/mossa {text}")
    assert not reaction.of("sendMessage"), reaction.texts()
    return text


async def _game_with_planted_blunder(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, options: str = ""
) -> str:
    """Anna opens 6-1 with the worst play, both then play well, Bruno resigns a single game
    and Anna accepts. Returns the planted play's notation."""
    bot.dice.queue_opening(6, 1)
    bot.dice.queue_rolls((5, 3), (4, 2))
    await start_match(bot, group, anna, bruno, options)
    planted = await _play(bot, group, anna, worst=True)
    await _play(bot, group, bruno)
    await _play(bot, group, anna)
    reaction = await bot.say(group, bruno, "/abbandona")
    prompt = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, anna, prompt, "Accetto l'abbandono")
    assert await bot.stored(group) is None  # the match is over
    return planted


def _sent(requests: list[RecordedRequest], method: str, chat_id: int) -> list[RecordedRequest]:
    return [r for r in requests if r.method == method and int(r.params["chat_id"]) == chat_id]


async def test_the_planted_blunder_is_ranked_first_and_sent_privately(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    private = tg.private_chat(anna)
    planted = await _game_with_planted_blunder(bot, group, anna, bruno)
    start = len(tg.requests)
    reaction = await bot.say(group, anna, "/analisi")
    assert R.ANALYSIS_SENT_PRIVATELY in reaction.texts()
    await _finished(bot)
    calls = tg.calls(since=start)
    (text,) = [
        str(r.params["text"])
        for r in _sent(calls, "sendMessage", private.id)
        if "Analisi ·" in str(r.params["text"])
    ]
    assert "<b>Anna</b> (Bianco)" in text and "<b>Bruno</b> (Nero)" in text
    worst = text.split("<b>Le decisioni peggiori</b>\n", 1)[1].splitlines()
    assert worst[0].startswith(f"1. <b>Anna</b>, tiro 6-1: giocato <code>{planted}</code>")
    assert "errore grave" in worst[1]
    (photo,) = _sent(calls, "sendPhoto", private.id)
    assert planted in str(photo.params["caption"])
    assert not _sent(calls, "sendMessage", group.id)[1:]  # the group got one short line


async def test_the_group_gets_it_when_both_chose_it_and_in_corso_is_said_first(
    bot: BotUnderTest,
    tg: FakeTelegram,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    planted = await _game_with_planted_blunder(bot, group, anna, bruno, "analisi")
    monkeypatch.setattr(analysis, "NOTICE_AFTER_SECONDS", 0.0)  # any analysis is "long"
    start = len(tg.requests)
    board = bot.board(group)
    assert R.BTN_ANALYSIS in board.button_texts
    reaction = await bot.press(group, bruno, board, R.BTN_ANALYSIS)
    assert reaction.alert is None
    await _finished(bot)
    texts = [str(r.params["text"]) for r in _sent(tg.calls(since=start), "sendMessage", group.id)]
    assert texts[0] == R.ANALYSIS_RUNNING
    assert "Analisi ·" in texts[-1] and planted in texts[-1]


async def test_without_a_private_chat_the_group_is_told_how_to_open_it(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _game_with_planted_blunder(bot, group, anna, bruno)
    bot.expect_errors("can.t initiate conversation")  # the probe of Bruno's private chat
    reaction = await bot.say(group, bruno, "/analisi")  # Bruno never opened the bot's chat
    (sent,) = reaction.of("sendMessage")
    assert "Avvia" in str(sent.params["text"])
    message = tg.message(group, sent.result["message_id"])
    assert message.buttons[0]["url"].endswith("?start=analisi")
    await _finished(bot)


async def test_no_finished_game_no_analysis(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    reaction = await bot.say(group, anna, "/analisi")
    assert reaction.texts() == [R.ANALYSIS_NONE]


async def test_in_a_private_game_against_the_computer_it_comes_right_there(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    bot.dice.queue_opening(6, 1)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Medio", "1 partita"):
        await bot.press(chat, anna, menu_id, label)
    planted = await _play(bot, chat, anna, worst=True)
    reaction = await bot.say(chat, anna, "/abbandona")
    prompt = tg.message(chat, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(chat, anna, prompt, "Vittoria semplice · 1 punto")
    assert await bot.stored(chat) is None  # the computer accepted: the game is over
    start = len(tg.requests)
    await bot.say(chat, anna, "/analisi")
    await _finished(bot)
    calls = tg.calls(since=start)
    (text,) = [
        str(r.params["text"])
        for r in _sent(calls, "sendMessage", chat.id)
        if "Analisi ·" in str(r.params["text"])
    ]
    assert "<b>Computer</b>" in text
    worst = text.split("<b>Le decisioni peggiori</b>\n", 1)[1]
    assert worst.startswith(f"1. <b>Anna</b>, tiro 6-1: giocato <code>{planted}</code>")
    assert _sent(calls, "sendPhoto", chat.id)
