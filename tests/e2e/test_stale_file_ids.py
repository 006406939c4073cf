"""A file whose id Telegram no longer knows is uploaded again, wherever it is sent: the
board, a hint, an analysis, a replay, an export. Telegram forgets ids now and then; the fake
is told to (``forget_files``) after each file was sent once, so the next send names a
refused id."""

from __future__ import annotations

import asyncio

import pytest

from bot import file_jobs
from bot.handlers import analysis
from bot.texts import review as R
from engine import format_play
from engine.ai.levels import ranked

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest, StoredMessage
from .test_records import _dropped_game

pytestmark = pytest.mark.slow

REFUSED = "wrong file identifier"


async def _computer_game(bot: BotUnderTest, chat: FakeChat, anna: FakeUser) -> StoredMessage:
    """Anna against the computer (Medio, classic, one game), Anna opening with 6-1."""
    bot.dice.queue_opening(6, 1)
    menu_id = (await bot.say(chat, anna, "/gioca")).of("sendMessage")[0].result["message_id"]
    for label in ("Backgammon classico", "Medio", "1 partita"):
        await bot.press(chat, anna, menu_id, label)
    return bot.board(chat)


def _refused_then_uploaded(photos: list[RecordedRequest]) -> RecordedRequest:
    """The picture was sent by its stale id, refused, then sent again as an upload."""
    refused, uploaded = photos
    assert refused.error is not None and REFUSED in refused.error.lower(), refused.error
    assert isinstance(refused.params.get("photo"), str)  # the remembered file id
    assert uploaded.ok and uploaded.files, "the retry uploads the picture's bytes"
    return uploaded


async def test_a_hint_whose_picture_id_was_forgotten_is_still_sent(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    board = await _computer_game(bot, chat, anna)
    first = await bot.press(chat, anna, board, R.BTN_HINT)
    assert [r.ok for r in first.of("sendPhoto")] == [True]
    bot.expect_errors(REFUSED)
    assert tg.forget_files() > 0
    reaction = await bot.say(chat, anna, "/suggerimento")
    sent = _refused_then_uploaded(reaction.of("sendPhoto"))
    assert "💡 Suggerimenti per <b>Anna</b> · tiro 6-1" in str(sent.params["caption"])


async def test_an_analysis_whose_picture_id_was_forgotten_is_still_sent(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    await _computer_game(bot, chat, anna)
    worst = ranked((await bot.table(chat)).state, deep=False)[-1][0]  # a decision to show
    assert not (await bot.say(chat, anna, f"/mossa {format_play(worst)}")).of("sendMessage")
    reaction = await bot.say(chat, anna, "/abbandona")
    prompt = tg.message(chat, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(chat, anna, prompt, "Vittoria semplice · 1 punto")
    assert await bot.stored(chat) is None  # the computer accepted: the game is over
    assert bot.app is not None
    await bot.say(chat, anna, "/analisi")
    await asyncio.gather(*list(analysis.running(bot.app)))
    await bot.idle()
    bot.expect_errors(REFUSED)
    assert tg.forget_files() > 0
    start = len(tg.requests)
    await bot.say(chat, anna, "/analisi")
    await asyncio.gather(*list(analysis.running(bot.app)))
    await bot.idle()
    calls = tg.calls(since=start)
    _refused_then_uploaded([r for r in calls if r.method == "sendPhoto"])
    texts = [str(r.params["text"]) for r in calls if r.method == "sendMessage" and r.ok]
    assert any("Analisi ·" in text for text in texts), texts


async def test_a_board_posted_again_with_a_forgotten_id_is_uploaded(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    board = await _computer_game(bot, chat, anna)
    bot.expect_errors(REFUSED)
    assert tg.forget_files() > 0
    reaction = await bot.say(chat, anna, "/partita")
    _refused_then_uploaded(reaction.of("sendPhoto"))
    assert bot.board(chat).message_id != board.message_id


@pytest.mark.parametrize(
    ("command", "method", "field"),
    [("/rivedi", "sendAnimation", "animation"), ("/esporta", "sendDocument", "document")],
)
async def test_a_replay_or_export_sent_again_with_a_forgotten_id_is_uploaded(
    bot: BotUnderTest,
    tg: FakeTelegram,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    method: str,
    field: str,
) -> None:
    await _dropped_game(bot, group, anna, bruno)
    (first,) = (await bot.say(group, anna, command)).of(method)
    monkeypatch.setattr(file_jobs, "RECENT_SECONDS", 0.0)  # not "just sent" any more
    bot.expect_errors(REFUSED)
    assert tg.forget_files() > 0
    refused, uploaded = (await bot.say(group, anna, command)).of(method)
    assert refused.error is not None and REFUSED in refused.error.lower(), refused.error
    assert refused.params[field] == first.result[field]["file_id"]
    assert uploaded.ok and uploaded.files, "the retry uploads the file again"
