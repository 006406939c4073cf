"""The full review end to end: 📄 Analisi completa under the analysis (or /analisi completa)
sends one HTML document with every decision of both sides and a picture per error.

The document is parsed as a browser would read it: one list item per decision, in order,
each checker play as it was made, the cube actions, and an inline PNG in every item marked
doubtful or worse (and in no other).
"""

from __future__ import annotations

import asyncio
import base64
import html
import io
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from PIL import Image

from bot.game.table import Table
from bot.handlers import analysis
from bot.texts import review_document as D
from engine import DecisionKind, GameRecord, format_play
from engine.ai import hint
from engine.ai.levels import ranked

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest

pytestmark = pytest.mark.slow
ROLL = "🎲 Tira i dadi"


@dataclass
class Row:
    attrs: dict[str, str]
    played: str = ""
    images: list[str] = field(default_factory=list)


class ReviewPage(HTMLParser):
    """The decisions of a review document: each ``li.decision`` with the text of its
    "played" field and the ``src`` of its images; and any image outside them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.rows: list[Row] = []
        self.stray_images: list[str] = []
        self._in_row = False
        self._in_played = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "li" and "decision" in found.get("class", "").split():
            self.rows.append(Row(found))
            self._in_row = True
        elif tag == "dd" and found.get("class") == "played" and self._in_row:
            self._in_played = True
        elif tag == "img":
            (self.rows[-1].images if self._in_row else self.stray_images).append(found["src"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._in_row = False
        elif tag == "dd":
            self._in_played = False

    def handle_data(self, data: str) -> None:
        if self._in_played:
            self.rows[-1].played += data


async def _finished(bot: BotUnderTest) -> None:
    assert bot.app is not None
    while analysis.running(bot.app):
        await asyncio.gather(*list(analysis.running(bot.app)))
    await bot.idle()


def _sent(requests: list[RecordedRequest], method: str, chat_id: int) -> list[RecordedRequest]:
    return [r for r in requests if r.method == method and int(r.params["chat_id"]) == chat_id]


async def _play(bot: BotUnderTest, chat: FakeChat, user: FakeUser, worst: bool = False) -> str:
    state = (await bot.table(chat)).state
    play = ranked(state, deep=False)[-1][0] if worst else hint(state, 1)[0][0]
    text = format_play(play)
    reaction = await bot.say(chat, user, f"/mossa {text}")
    assert not reaction.of("sendMessage"), reaction.texts()
    return text


def _document(requests: list[RecordedRequest], chat: FakeChat) -> tuple[RecordedRequest, str]:
    (sent,) = _sent(requests, "sendDocument", chat.id)
    assert sent.ok, sent.error
    assert sent.result["document"]["file_name"].endswith(".html")
    return sent, sent.files["document"].decode("utf-8")


def _check_rows(page: ReviewPage, record: GameRecord) -> None:
    """Every checker play of the record, in order, as played; a picture in each item
    marked as an error and nowhere else; every picture a PNG board."""
    plays = [
        format_play(d.chosen)
        for d in record.decisions()
        if d.kind is DecisionKind.PLAY and not isinstance(d.chosen, bool)
    ]
    assert [r.played.split(" · ")[0] for r in page.rows if r.attrs["data-kind"] == "play"] == plays
    assert not page.stray_images
    marked = [r for r in page.rows if r.attrs["data-severity"] != "none"]
    assert marked, "the planted error is marked"
    for row in page.rows:
        assert len(row.images) == (row in marked), row.attrs
    for row in marked:
        (src,) = row.images
        assert src.startswith("data:image/png;base64,")
        with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as picture:
            assert picture.format == "PNG" and picture.width == 480


async def test_the_full_review_of_a_classic_match_game_from_the_analysis_button(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    private = tg.private_chat(anna)
    bot.dice.queue_opening(6, 1)
    bot.dice.queue_rolls((5, 3), (4, 2))
    await start_match(bot, group, anna, bruno, "classico 3")
    planted = await _play(bot, group, anna, worst=True)
    await bot.press(group, bruno, bot.board(group), ROLL)
    await _play(bot, group, bruno)
    await bot.press(group, anna, bot.board(group), ROLL)
    await _play(bot, group, anna)
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    record = (await bot.table(group)).record
    assert record is not None and record.finished

    await bot.say(group, anna, "/analisi")
    await _finished(bot)
    (summary,) = [
        m
        for m in tg.chat_messages(private, from_bot=True)
        if (m.text or "").startswith("📊 Analisi ·")
    ]  # the chat's summary, as before, now with the button
    assert summary.button_texts == [D.BTN_FULL_REVIEW]
    start = len(tg.requests)
    reaction = await bot.press(private, anna, summary, D.BTN_FULL_REVIEW)
    assert reaction.alert is None
    await _finished(bot)
    sent, text = _document(tg.calls(since=start), private)
    assert "Analisi completa" in str(sent.params["caption"])
    page = ReviewPage(text)
    _check_rows(page, record)
    first = page.rows[0]
    assert first.played.startswith(planted) and first.attrs["data-side"] == "white"
    assert first.attrs["data-severity"] in ("error", "blunder")
    cube = [
        (r.attrs["data-kind"], r.played.split(" · ")[0])
        for r in page.rows
        if r.attrs["data-kind"] != "play"
    ]
    assert ("double", D.double_choice(True)) in cube
    assert cube[-1] == ("take", D.take_choice(False))
    assert not _sent(tg.calls(since=start), "sendMessage", group.id)

    # A double tap is pointed to the document just sent, not built again.
    again = await bot.press(private, anna, summary, D.BTN_FULL_REVIEW)
    await _finished(bot)
    assert again.alert == D.ALERT_JUST_SENT and not again.of("sendDocument")
    # Forged data naming another game, pressed on the same message, acts on nothing.
    forged = await bot.press(private, anna, summary, data="a:1:1:1", forge=True)
    assert forged.alert is not None and not forged.of("sendDocument")


async def test_the_full_review_of_a_lungo_game_by_command(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    private = tg.private_chat(anna)
    bot.dice.queue_opening(3, 1)  # Anna takes White; the first two turns are forced
    bot.dice.queue_rolls((6, 5), (5, 2), (4, 3), (6, 2))
    await start_match(bot, group, anna, bruno, "lungo 1")
    await _play(bot, group, anna)
    await _play(bot, group, bruno)
    planted = await _play(bot, group, anna, worst=True)
    await _play(bot, group, bruno)
    reaction = await bot.say(group, bruno, "/abbandona")
    prompt = tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(group, bruno, prompt, "Sì, abbandono")
    assert await bot.stored(group) is None  # the series is over
    game_id = (await bot.repo.finished_game_ids(group.id, 1))[0]
    finished = await bot.repo.load_finished_game(group.id, game_id)
    assert finished is not None
    record = Table.from_doc(finished.doc).record
    assert record is not None and record.finished

    start = len(tg.requests)
    await bot.say(group, anna, f"/analisi {D.FULL_WORD}")
    await _finished(bot)
    calls = tg.calls(since=start)
    assert not [r for r in _sent(calls, "sendMessage", private.id) if "Analisi ·" in str(r.params)]
    _, text = _document(calls, private)
    page = ReviewPage(text)
    _check_rows(page, record)
    assert all(r.attrs["data-kind"] == "play" for r in page.rows)  # lungo has no cube
    (row,) = [r for r in page.rows if r.played.startswith(planted)]
    assert row.attrs["data-side"] == "white" and row.attrs["data-severity"] != "none"
    assert [r.attrs["data-severity"] for r in page.rows[:2]] == ["none", "none"]  # forced
    assert html.escape(D.FORCED) in text
