"""The challenge card costs at most one group edit per few seconds: quick taps on it are
each answered at once, and the card is edited once more with the latest settings."""

from __future__ import annotations

import asyncio

from bot.adapters.card_edits import CARD_EDIT_SECONDS

from .conftest import LAUNCH, BotUnderTest
from .fake_telegram import FakeChat, FakeUser


async def test_ten_quick_taps_on_the_card_cost_two_edits_and_show_the_last_choice(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    reaction = await bot.say(group, anna, "/sfida")
    (sent,) = reaction.of("sendMessage")
    card = bot.tg.message(group, sent.result["message_id"])
    labels = ["3 punti", "5 punti", "30 s", "7 punti", "1 min"] * 2
    datas = [card.data_for(label) for label in labels]
    start = len(bot.tg.requests)
    queries = [bot.tg.press(group, anna, card, data) for data in datas]
    await bot.idle()
    edits = [
        r
        for r in bot.tg.requests[start:]
        if r.method == "editMessageText" and str(r.params.get("chat_id")) == str(group.id)
    ]
    assert len(edits) <= 2, [e.params.get("text") for e in edits]
    answers = [bot.tg.callback_answer(q) for q in queries]
    assert all(a is not None and not a.get("show_alert") for a in answers), answers
    card = bot.tg.message(group, card.message_id)
    assert "✓ 1 min" in card.button_texts and "✓ 7 punti" in card.button_texts

    # A tap after the period edits at once; the launch is never held back.
    await asyncio.sleep(CARD_EDIT_SECONDS)
    await bot.press(group, anna, card, "3 punti")
    card = bot.tg.message(group, card.message_id)
    assert "✓ 3 punti" in card.button_texts
    await bot.press(group, anna, card, LAUNCH)
    card = bot.tg.message(group, card.message_id)
    assert card.button_texts == ["Accetta", "Ritira la sfida"]
    await bot.press(group, bruno, card, "Accetta")
    table = await bot.table(group)
    assert table.state.config.length == 3
