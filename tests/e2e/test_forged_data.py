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


async def _state(bot: BotUnderTest, chats: list[FakeChat]) -> list[object]:
    """What a forged press must leave as it was: every game and open challenge."""
    out: list[object] = []
    for chat in chats:
        stored = await bot.repo.load_game(chat.id)
        out.append(None if stored is None else (stored.game_id, stored.version))
        out.append([(c.challenge_id, c.payload) for c in await bot.repo.list_challenges(chat.id)])
    return out


async def test_each_familys_data_pressed_on_another_kind_of_message_changes_nothing(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser, bruno: FakeUser
) -> None:
    """Real data of every family (a board, a card being set up, a launched challenge, the
    settings, a rules page, the menu and the computer set-up), pressed by hand on every
    other kind of message by both people: a plain refusal or a harmless reply, never an edit
    of the pressed message, never a change of game or challenge, never a traceback."""
    drafting, waiting, playing = tg.group(-2001, "A"), tg.group(-2002, "B"), tg.group(-2003, "C")
    private = tg.private_chat(anna)
    await bot.say(drafting, anna, "/sfida classico 3")
    draft = tg.last_bot_message(drafting)
    await bot.say(drafting, anna, "/impostazioni")
    settings = tg.last_bot_message(drafting)
    await bot.say(drafting, anna, "/regole classico")
    rules = tg.last_bot_message(drafting)
    challenge = await post_challenge(bot, waiting, anna, "classico 1")
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, playing, anna, bruno, "classico 1")
    await bot.say(private, anna, "/start")
    menu = tg.last_bot_message(private)
    await bot.say(private, anna, "/gioca")
    setup = tg.last_bot_message(private)
    targets = {
        "draft": (drafting, draft),
        "settings": (drafting, settings),
        "rules": (drafting, rules),
        "challenge": (waiting, challenge),
        "board": (playing, board),
        "menu": (private, menu),
        "setup": (private, setup),
    }
    data = {
        kind: tg.message(chat, m.message_id).callback_data for kind, (chat, m) in targets.items()
    }
    chats = [drafting, waiting, playing, private]
    before_state = await _state(bot, chats)
    tried = 0
    for target, (chat, message) in targets.items():
        for source, items in data.items():
            if source == target:
                continue
            for item in items:
                for user in (anna, bruno):
                    shown = {
                        k: tg.message(c, m.message_id).snapshot() for k, (c, m) in targets.items()
                    }
                    reaction = await bot.press(chat, user, message, data=item, forge=True)
                    tried += 1
                    where = f"{source} data {item!r} on the {target} by {user.first_name}"
                    assert reaction.alert != T.GENERIC_ERROR[: T.MAX_ALERT_CHARS], where
                    assert not reaction.of("editMessageText"), where
                    assert not reaction.of("editMessageMedia"), where
                    assert not reaction.of("editMessageCaption"), where
                    assert not reaction.of("editMessageReplyMarkup"), where
                    after = {
                        k: tg.message(c, m.message_id).snapshot() for k, (c, m) in targets.items()
                    }
                    assert after == shown, where
                    assert await _state(bot, chats) == before_state, where
    assert tried > 100
