"""Inline mode: a challenge offered from any chat through the bot's name, and the game played
in the message that carries it (edited by inline_message_id, pictures by file_id only)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import pytest

from bot.adapters.places import inline_key
from bot.game.table import Table
from bot.handlers import analysis
from engine import Phase

from .conftest import BotUnderTest, choose_step, turn_holder
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest, StoredMessage

MEDIA_CHAT = -1009876543210


@pytest.fixture(autouse=True)
def inline_mode_on(tg: FakeTelegram) -> None:
    """What the operator sets up: /setinline, and a channel the bot may post pictures in."""
    tg.channel(MEDIA_CHAT, "Tavole")
    tg.supports_inline_queries = True


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"media_chat": MEDIA_CHAT}


@pytest.fixture
def chat_of_two(tg: FakeTelegram, bruno: FakeUser) -> FakeChat:
    """Anna's private chat with Bruno: the bot is no member of it."""
    return FakeChat(bruno.id, "private", first_name=bruno.first_name)


def base36(n: int) -> str:
    """How card data writes a user id."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return digits[n] if n < 36 else base36(n // 36) + digits[n % 36]


def result_titled(answer: dict[str, Any], title: str) -> str:
    (found,) = [r["id"] for r in answer["results"] if r["title"] == title]
    return str(found)


async def post_card(
    bot: BotUnderTest,
    chat: FakeChat,
    user: FakeUser,
    words: str,
    title: str,
    *,
    feedback: bool = True,
) -> str:
    """The user types the bot's name and the words, and picks the card titled so (with
    @BotFather's inline feedback on, as the cards need)."""
    answer = await bot.inline_query(user, words)
    return bot.tg.choose_inline_result(
        answer["id"], result_titled(answer, title), chat, feedback=feedback
    )


async def table_of(bot: BotUnderTest, inline_id: str) -> Table:
    stored = await bot.repo.load_game(inline_key(inline_id))
    assert stored is not None, "no game in this inline message"
    return Table.from_doc(stored.doc)


async def play_inline_until(
    bot: BotUnderTest,
    inline_id: str,
    players: tuple[FakeUser, FakeUser],
    stop_labels: Iterable[str],
    max_presses: int = 2000,
) -> StoredMessage:
    """Press the inline board's buttons as the player on turn would until a stop label shows."""
    stops = set(stop_labels)
    for _ in range(max_presses):
        board = bot.tg.inline_message(inline_id)
        labels = board.button_texts
        if stops & set(labels):
            return board
        if "Partita successiva" in labels:
            reaction = await bot.press_inline(players[0], inline_id, "Partita successiva")
        else:
            user = turn_holder(board.caption or "", players)
            assert user is not None, f"nobody is on turn: {board.caption!r}"
            if "✅ Conferma" in labels:
                data = board.data_for("✅ Conferma")
            elif "🎲 Tira i dadi" in labels:
                data = board.data_for("🎲 Tira i dadi")
            else:
                state = (await table_of(bot, inline_id)).state
                legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
                if state.phase is not Phase.MOVE:
                    legal = set()
                data = choose_step(board, legal)
                assert data is not None, f"no move button to press: {labels}"
            reaction = await bot.press_inline(user, inline_id, data=data)
        assert reaction.answer is not None and reaction.alert is None, reaction.answer
    raise AssertionError(f"no {stops} after {max_presses} presses")


def uploads_to_media_chat(bot: BotUnderTest, since: int = 0) -> int:
    return len(
        [
            r
            for r in bot.tg.calls("sendPhoto", since=since)
            if int(r.params["chat_id"]) == MEDIA_CHAT
        ]
    )


async def test_a_challenge_from_a_private_chat_is_played_to_the_end_in_its_message(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    answer = await bot.inline_query(anna, "classico 3 senza limite")
    titles = [r["title"] for r in answer["results"]]
    assert titles[0] == "Backgammon classico · Match a 3 punti"  # the typed one first
    assert "Backgammon lungo · Serie a 3 punti" in titles
    assert answer["is_personal"]
    inline_id = bot.tg.choose_inline_result(
        answer["id"], answer["results"][0]["id"], chat_of_two, feedback=True
    )
    card = bot.tg.inline_message(inline_id)
    assert "Anna cerca un avversario" in (card.text or "")
    assert card.button_texts == ["Accetta", "Ritira la sfida"]

    refused = await bot.press_inline(anna, inline_id, "Accetta")
    assert refused.alert == "Non puoi accettare la tua sfida."

    bot.dice.queue_opening(5, 3)
    start = len(bot.tg.requests)
    accepted = await bot.press_inline(bruno, inline_id, "Accetta")
    assert accepted.alert is None
    board = bot.tg.inline_message(inline_id)
    assert board.photo is not None and board.text is None  # the card became the board
    assert "Tocca ad Anna (" in (board.caption or "")
    (edit,) = accepted.of("editMessageMedia")
    assert edit.params["inline_message_id"] == inline_id and not edit.files
    assert uploads_to_media_chat(bot, start) == 1  # uploaded once, shown by its file_id

    intruder = await bot.press_inline(carla, inline_id, "13/8")
    assert intruder.alert == "Non stai giocando questa partita."
    half = await bot.press_inline(anna, inline_id, "13/8")
    assert half.methods == ["answerCallbackQuery"]  # the board's buttons finish the turn
    assert half.answer is not None and "13/8" in half.answer["text"]
    await bot.press_inline(anna, inline_id, "8/5")
    await bot.press_inline(anna, inline_id, "✅ Conferma")
    assert "Tocca a Bruno (" in (bot.tg.inline_message(inline_id).caption or "")

    # Bruno doubles, Anna takes: the cube is at 2.
    await bot.press_inline(bruno, inline_id, "Raddoppia")
    assert "Accetto" in bot.tg.inline_message(inline_id).button_texts
    wrong = await bot.press_inline(bruno, inline_id, "Accetto")
    assert wrong.alert is not None
    await bot.press_inline(anna, inline_id, "Accetto")
    assert (await table_of(bot, inline_id)).state.cube_value == 2

    # Bruno resigns a single game at the cube's value; the offer is asked on the board.
    await bot.press_inline(bruno, inline_id, "Abbandona")
    board = bot.tg.inline_message(inline_id)
    assert "Vittoria semplice · 2 punti" in board.button_texts
    assert "abbandonare" in (board.caption or "")
    await bot.press_inline(bruno, inline_id, "Vittoria semplice · 2 punti")
    board = bot.tg.inline_message(inline_id)
    assert board.button_texts[:2] == ["Accetto l'abbandono", "Rifiuto, si gioca"]
    not_his = await bot.press_inline(bruno, inline_id, "Accetto l'abbandono")
    assert not_his.alert == "Tocca all'avversario accettare o rifiutare il tuo abbandono."
    await bot.press_inline(anna, inline_id, "Accetto l'abbandono")
    board = bot.tg.inline_message(inline_id)
    assert "Partita successiva" in board.button_texts
    assert (await table_of(bot, inline_id)).state.score == (2, 0)

    final = await play_inline_until(bot, inline_id, (anna, bruno), {"Rivincita"})
    assert "vince" in (final.caption or "")
    assert await bot.repo.load_game(inline_key(inline_id)) is None  # archived
    assert not bot.tg.chat_messages(chat_of_two, from_bot=True)  # the bot never wrote there
    assert not [
        r for r in bot.tg.requests if r.params.get("inline_message_id") and r.files
    ]  # never an upload to the inline message

    # The match counts for both players and the global leaderboard, with no chat board.
    for user in (anna, bruno):
        classic = (await bot.repo.player_stats(user.id)).by_variant["classic"]
        assert classic.matches == 1 and classic.games >= 2
        assert await bot.repo.player_rank(user.id, "classic") in (1, 2)
        assert await bot.repo.player_rank(user.id, "classic", inline_key(inline_id)) is None
    games = (await bot.repo.player_stats(anna.id)).by_variant["classic"].games
    stats = await bot.say(FakeChat(anna.id, "private", first_name="Anna"), anna, "/statistiche")
    assert f"Partite: {games}" in stats.texts()[0]

    # The final board's analysis button: the board is in someone else's chat, so the
    # analysis goes to the player privately (Anna has a private chat with the bot now).
    pressed = await bot.press_inline(anna, inline_id, "📊 Analisi")
    assert pressed.alert == "Ti mando l'analisi in privato."
    await asyncio.gather(*list(analysis.running(bot.app)))
    private = [m.text or "" for m in bot.tg.chat_messages(anna.id, from_bot=True)]
    assert any("Analisi ·" in text for text in private)
    assert not bot.tg.chat_messages(chat_of_two, from_bot=True)

    # So do the replay and the export, to whoever pressed.
    replay = await bot.press_inline(anna, inline_id, "🎞 Rivedi")
    assert replay.of("sendAnimation")[0].params["chat_id"] == anna.id
    export = await bot.press_inline(bruno, inline_id, "📄 Esporta")
    assert export.of("sendDocument")[0].params["chat_id"] == bruno.id


async def test_a_card_for_one_user_and_forged_presses_are_refused(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    inline_id = await post_card(
        bot, chat_of_two, anna, "@bruno lungo", "Backgammon lungo · Partita singola"
    )
    card = bot.tg.inline_message(inline_id)
    assert "Anna sfida @bruno" in (card.text or "")
    assert card.button_texts == ["Accetta", "Rifiuta", "Ritira la sfida"]
    assert (await bot.press_inline(carla, inline_id, "Accetta")).alert == (
        "Questa sfida non è per te."
    )
    accept = card.data_for("Accetta")
    forged = accept.replace(":l1:", ":l7:")  # the same signature on other settings
    assert (await bot.press_inline(bruno, inline_id, data=forged, forge=True)).alert == (
        "Questo pulsante non è più valido."
    )
    # Another challenger (ids are written in base 36).
    someone = accept.replace(f":{base36(anna.id)}:", f":{base36(carla.id)}:")
    assert someone != accept
    assert (await bot.press_inline(bruno, inline_id, data=someone, forge=True)).alert == (
        "Questo pulsante non è più valido."
    )
    refused = await bot.press_inline(carla, inline_id, "Ritira la sfida")
    assert refused.alert == "Solo chi ha lanciato la sfida può ritirarla."
    await bot.press_inline(bruno, inline_id, "Rifiuta")
    card = bot.tg.inline_message(inline_id)
    assert "Bruno ha rifiutato la sfida" in (card.text or "") and card.button_texts == []
    assert await bot.repo.load_game(inline_key(inline_id)) is None

    # A game's buttons forged onto a card find no game in that message.
    stale = await bot.press_inline(bruno, inline_id, data="g:1:1:r", forge=True)
    assert stale.alert == "La partita di questo pulsante è finita: il pulsante non vale più."


@pytest.mark.slow
async def test_an_inline_game_survives_a_restart_of_the_bot(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "", "Backgammon classico · Partita singola")
    bot.dice.queue_opening(3, 1)
    await bot.press_inline(bruno, inline_id, "Accetta")
    await bot.press_inline(anna, inline_id, "8/5")  # half a move: only in storage from now on
    key = inline_key(inline_id)
    assert await bot.repo.get_deadline(key) is not None

    await bot.restart()
    assert await bot.repo.get_deadline(key) is not None  # its timer is still stored

    start = len(bot.tg.requests)
    reaction = await bot.press_inline(anna, inline_id, "6/5")
    assert reaction.alert is None
    await bot.press_inline(anna, inline_id, "✅ Conferma")
    assert "Anna ha giocato 3-1: 8/5 6/5." in (bot.tg.inline_message(inline_id).caption or "")
    assert uploads_to_media_chat(bot, start) >= 1  # the new process uploads what it shows

    final = await play_inline_until(bot, inline_id, (anna, bruno), {"Rivincita"})
    assert "vince la partita" in (final.caption or "")
    finished = await bot.repo.finished_game_ids(key)

    # Rivincita offers the next match in the same message; once accepted it starts there.
    rematch = await bot.press_inline(bruno, inline_id, "Rivincita")
    assert rematch.alert is None and not rematch.of("sendMessage")
    assert await bot.repo.load_game(key) is None
    accepted = await bot.press_inline(anna, inline_id, "✅ Accetta la rivincita")
    assert accepted.alert is None and not accepted.of("sendMessage")
    again = await bot.repo.load_game(key)
    assert again is not None and again.game_id not in finished
    assert "Tocca a" in (bot.tg.inline_message(inline_id).caption or "")


async def test_the_challenger_may_withdraw_the_card(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "", "Backgammon classico · Match a 5 punti")
    await bot.press_inline(anna, inline_id, "Ritira la sfida")
    card = bot.tg.inline_message(inline_id)
    assert "Anna ha ritirato la sfida." in (card.text or "") and card.button_texts == []


async def test_inline_mode_is_off_without_a_media_chat(
    tg: FakeTelegram,
    repo: Any,
    computer: Any,
    anna: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    off = BotUnderTest(tg, repo, computer=computer)
    with caplog.at_level(logging.INFO, logger="bot.handlers.inline"):
        await off.start()
    try:
        assert "inline challenges are off: set TAVOLA_MEDIA_CHAT" in caplog.text
        tg.inline_query(anna, "classico 3")  # not asked for: Telegram drops it
        await off.idle()
        assert [u["inline_query"]["query"] for u in tg.dropped_updates] == ["classico 3"]
        assert not tg.calls("answerInlineQuery")
    finally:
        await off.stop()
    assert not tg.errors()


@pytest.mark.parametrize(
    "bot_options", [{"media_chat": MEDIA_CHAT, "turn_seconds": 4}], ids=["4 s turns"]
)
async def test_an_inline_turn_is_lost_on_time_without_a_reminder_message(
    bot: BotUnderTest, chat_of_two: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    inline_id = await post_card(bot, chat_of_two, anna, "", "Backgammon classico · Partita singola")
    bot.dice.queue_opening(3, 1)
    await bot.press_inline(bruno, inline_id, "Accetta")
    assert "4 secondi" in (bot.tg.inline_message(inline_id).caption or "")

    def lost_on_time(request: RecordedRequest) -> bool:
        caption = str((request.params.get("media") or {}).get("caption", ""))
        return request.params.get("inline_message_id") == inline_id and "Tempo scaduto" in caption

    await bot.tg.wait_for(lost_on_time, timeout=20)
    await bot.idle()
    assert "Bruno vince" in (bot.tg.inline_message(inline_id).caption or "")
    assert not bot.tg.calls("sendMessage")  # no reminder: the bot cannot write in that chat
    assert await bot.repo.load_game(inline_key(inline_id)) is None
