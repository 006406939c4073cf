"""/regole: pages navigated with buttons that edit one message in place.

Pressing the page already shown (once, or twice in a row before the bot catches up) must not
surface Telegram's "message is not modified" refusal: the suite-wide check on the fake
server's errors covers that.
"""

from __future__ import annotations

from .conftest import BotUnderTest
from .fake_telegram import FakeChat, FakeUser, StoredMessage

OVERVIEW_BUTTONS = ["Backgammon classico", "Backgammon lungo"]
CLASSIC_SECTIONS = [
    "Preparazione",
    "Movimento",
    "Colpire e barra",
    "Uscita",
    "Punteggio",
    "Cubo e partita libera",
    "Notazione",
]


async def _open_rules(bot: BotUnderTest, group: FakeChat, user: FakeUser) -> StoredMessage:
    reaction = await bot.say(group, user, "/regole")
    (sent,) = reaction.of("sendMessage")
    page = bot.tg.message(group, sent.result["message_id"])
    assert page.text is not None and page.text.startswith("Regole\n")
    assert page.button_texts == OVERVIEW_BUTTONS
    return page


async def test_rules_pages_change_in_place_through_buttons(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    page = await _open_rules(bot, group, anna)
    seen = {page.text}

    reaction = await bot.press(group, anna, page, "Backgammon classico")
    assert reaction.methods == ["answerCallbackQuery", "editMessageText"]
    page = bot.tg.message(group, page.message_id)
    assert page.button_texts == [*CLASSIC_SECTIONS, "« Indietro"]
    seen.add(page.text)

    for section in CLASSIC_SECTIONS:
        await bot.press(group, anna, page, section)
        page = bot.tg.message(group, page.message_id)
        assert page.text not in seen, f"page {section!r} repeats an earlier text"
        seen.add(page.text)

    await bot.press(group, anna, page, "« Indietro")
    page = bot.tg.message(group, page.message_id)
    assert page.text is not None and page.text.startswith("Regole\n")
    assert page.button_texts == OVERVIEW_BUTTONS
    assert len(bot.tg.chat_messages(group, from_bot=True)) == 1  # one message all along

    reaction = await bot.press(group, anna, page, "Backgammon lungo")
    page = bot.tg.message(group, page.message_id)
    assert "Regola della testa" in page.button_texts and "Ultimo lancio" in page.button_texts


async def test_pressing_the_page_already_shown_is_answered_without_error(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    page = await _open_rules(bot, group, anna)
    await bot.press(group, anna, page, "Backgammon classico")
    page = bot.tg.message(group, page.message_id)
    await bot.press(group, anna, page, "Uscita")
    page = bot.tg.message(group, page.message_id)
    shown = page.text

    reaction = await bot.press(group, anna, page, "Uscita")
    assert reaction.answer is not None and reaction.alert is None
    assert reaction.methods == ["answerCallbackQuery"]  # no edit attempted at all
    assert bot.tg.message(group, page.message_id).text == shown


async def test_double_click_on_a_rules_page_is_answered_twice_without_error(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    page = await _open_rules(bot, group, anna)
    await bot.press(group, anna, page, "Backgammon classico")
    page = bot.tg.message(group, page.message_id)
    shown = page.text
    # The second press still carries the old page, so the bot edits twice; Telegram refuses
    # the second edit as "not modified", which the bot must swallow.
    bot.expect_errors("message is not modified")
    data = page.data_for("Punteggio")
    first, second = await bot.press_together(group, [(anna, page, data), (anna, page, data)])
    assert first.alert is None and second.alert is None
    assert len(first.of("editMessageText")) >= 1
    assert bot.tg.message(group, page.message_id).text != shown


async def test_rules_command_with_variant_opens_its_page(
    bot: BotUnderTest, group: FakeChat, bruno: FakeUser
) -> None:
    reaction = await bot.say(group, bruno, "/regole lungo")
    (sent,) = reaction.of("sendMessage")
    page = bot.tg.message(group, sent.result["message_id"])
    assert "Regola del blocco" in page.button_texts
    assert page.button_texts[-1] == "« Indietro"
