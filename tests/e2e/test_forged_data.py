"""Callback data that a modified client writes by hand, or carries from one message to another,
changes nothing: each family acts only on the message it was made for, and the press gets a
plain refusal (an alert), never a traceback, never an edit.
"""

from __future__ import annotations

from bot.texts import messages as T

from .conftest import BotUnderTest, post_challenge, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage


def settings_data(user: FakeUser, value: str = "1") -> str:
    """What a settings toggle of this user carries."""
    return f"o:auto_confirm:{value}:{user.id}"


def unchanged(before: tuple[object, ...], after: StoredMessage) -> bool:
    """Does the message still show what its snapshot ``before`` showed?"""
    return before == after.snapshot()


async def test_forged_settings_data_on_a_challenge_card_is_refused_and_the_card_kept(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    card = await post_challenge(bot, group, anna, "classico 3")
    before = tg.message(group, card.message_id).snapshot()
    assert "Accetta" in card.button_texts
    for data in (settings_data(bruno), "o:auto_confirm:1", settings_data(bruno, "0")):
        reaction = await bot.press(group, bruno, card, data=data, forge=True)
        assert reaction.alert is not None, data
        assert not reaction.of("editMessageText"), data
        assert unchanged(before, tg.message(group, card.message_id))
    prefs = await bot.repo.get_preferences(bruno.id)
    assert prefs.get("auto_confirm") is None  # nothing was stored either
    reaction = await bot.press(group, bruno, card, "Accetta")  # the challenge still works
    assert reaction.of("sendPhoto")


async def test_forged_settings_data_on_a_board_photo_is_refused_without_a_traceback(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await start_match(bot, group, anna, bruno, "classico 1")
    before = tg.message(group, board.message_id).snapshot()
    for data in (settings_data(anna), "o:auto_confirm:1"):
        reaction = await bot.press(group, anna, board, data=data, forge=True)
        assert reaction.alert == T.ALERT_STALE_BUTTON
        assert unchanged(before, tg.message(group, board.message_id))
    assert bot.unexpected_errors() == []


async def test_settings_buttons_act_only_for_the_player_they_show(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await bot.say(group, anna, "/impostazioni")
    shown = tg.last_bot_message(group)
    before = tg.message(group, shown.message_id).snapshot()
    label = "Attiva la conferma automatica"
    reaction = await bot.press(group, bruno, shown, label)
    assert reaction.alert == T.ALERT_NOT_YOUR_SETTINGS
    assert unchanged(before, tg.message(group, shown.message_id))
    # Bruno's own data, pressed on Anna's settings message, is refused the same way.
    reaction = await bot.press(group, bruno, shown, data=settings_data(bruno), forge=True)
    assert reaction.alert is not None
    assert unchanged(before, tg.message(group, shown.message_id))
    assert (await bot.repo.get_preferences(bruno.id)).get("auto_confirm") is None

    reaction = await bot.press(group, anna, shown, label)
    assert reaction.alert is None
    assert "Conferma automatica: sì" in (tg.message(group, shown.message_id).text or "")
