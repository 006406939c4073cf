"""Text that users control (names, /sfida words, typed moves, command arguments) reaches
the chat exactly as they wrote it: never as markup, never as Telegram's refusal to parse.

The fake server parses HTML as Telegram does, so an unescaped "<" would be a refused
request (the `bot` fixture fails the test on it) and an unescaped "<b>" would vanish into
a bold entity; the plain texts below must therefore contain the markup literally.
"""

from __future__ import annotations

import pytest

from bot.texts import messages as T
from bot.texts import tables as TT

from .conftest import LAUNCH, BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage, utf16_length

EVIL = "<b>Anna</b> & <i>"


@pytest.fixture
def evil(tg: FakeTelegram) -> FakeUser:
    """A user whose name is markup, an ampersand and an unclosed tag."""
    return tg.user(201, EVIL, "anna_evil")


def bold_spans(message: StoredMessage) -> list[str]:
    """The pieces of a caption (or text) that Telegram shows in bold."""
    text = message.caption if message.photo is not None else message.text
    entities = message.caption_entities if message.photo is not None else message.entities
    units = (text or "").encode("utf-16-le")
    return [
        units[2 * e["offset"] : 2 * (e["offset"] + e["length"])].decode("utf-16-le")
        for e in entities
        if e["type"] == "bold"
    ]


async def test_a_name_made_of_markup_challenges_plays_and_loses_shown_literally(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, evil: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    reaction = await bot.say(group, evil, "/sfida classico 1")
    (card_text,) = reaction.texts()
    assert card_text.startswith(f"Nuova sfida di {EVIL}\n")
    card = tg.last_bot_message(group)
    assert EVIL in bold_spans(card)  # the whole name in bold, as one piece of text
    await bot.press(group, evil, card, LAUNCH)
    card = tg.message(group, card.message_id)
    assert (card.text or "").startswith(f"{EVIL} cerca un avversario.")
    assert bold_spans(card)[0] == EVIL

    await bot.press(group, bruno, card, "Accetta")
    assert tg.message(group, card.message_id).text == (
        f"Bruno accetta la sfida di {EVIL}. Si comincia!"
    )
    caption = bot.board(group).caption or ""
    assert f"Tiro d'apertura: {EVIL} 3, Bruno 1. Comincia {EVIL}." in caption
    assert f"Tocca a {EVIL} (" in caption
    assert EVIL in bold_spans(bot.board(group))

    await bot.say(group, evil, "/mossa 8/5 6/5")
    assert f"{EVIL} ha giocato 3-1: 8/5 6/5." in (bot.board(group).caption or "")

    # Resigning is an offer in a prompt of its own, put to the opponent: both name them.
    reaction = await bot.press(group, bruno, bot.board(group), "Abbandona")
    (sent,) = reaction.of("sendMessage")
    prompt = tg.message(group, sent.result["message_id"])
    assert f"Scegli cosa offrire a {EVIL}, " in (prompt.text or "")
    assert EVIL in bold_spans(prompt)
    await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    prompt = tg.message(group, prompt.message_id)
    assert prompt.text == (
        f"🏳 Bruno propone di abbandonare: {EVIL} vince 1 punto (vittoria semplice). "
        f"{EVIL}, accetti?"
    )
    assert bold_spans(prompt).count(EVIL) == 2
    assert f"risponde {EVIL}." not in (bot.board(group).caption or "")  # the prompt says it
    await bot.press(group, evil, prompt, "Accetto l'abbandono")
    assert tg.message(group, prompt.message_id).text == (
        f"Bruno abbandona: {EVIL} vince 1 punto (vittoria semplice)."
    )
    assert f"Bruno abbandona: {EVIL} vince" in (bot.board(group).caption or "")

    (ranking,) = (await bot.say(group, bruno, "/classifica")).texts()
    assert f"1. {EVIL}: " in ranking
    (stats,) = (await bot.say(group, evil, "/statistiche")).texts()
    assert stats.startswith(f"Statistiche di {EVIL}\n")


async def test_a_personal_challenge_and_its_refusal_show_both_names_literally(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, evil: FakeUser, bruno: FakeUser
) -> None:
    hello = tg.send_message(group, evil, "ciao")
    (card_text,) = (await bot.say(group, bruno, "/sfida lungo", reply_to=hello)).texts()
    assert f"Avversario: {EVIL}\n" in card_text
    card = tg.last_bot_message(group)
    await bot.press(group, bruno, card, LAUNCH)
    card = tg.message(group, card.message_id)
    assert (card.text or "").startswith(f"Bruno sfida {EVIL}!")
    await bot.press(group, evil, card, "Rifiuta")
    assert tg.message(group, card.message_id).text == f"{EVIL} ha rifiutato la sfida di Bruno."


async def test_a_game_against_the_computer_greets_a_markup_name_literally(
    bot: BotUnderTest, tg: FakeTelegram, evil: FakeUser
) -> None:
    private = tg.private_chat(evil)
    (welcome,) = (await bot.say(private, evil, "/start")).texts()
    assert welcome.startswith(f"Ciao {EVIL}!")
    await bot.say(private, evil, "/gioca")
    menu = tg.last_bot_message(private)
    for label in ("Backgammon classico", "Facile", "1 partita"):
        await bot.press(private, evil, menu, label)
    assert tg.message(private, menu.message_id).text == (
        f"{EVIL} contro il Computer (Facile). Buona partita!"
    )
    assert "Tiro d'apertura: " in (bot.board(private).caption or "")
    assert EVIL in (bot.board(private).caption or "")  # the opening roll names both


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("/sfida <b>x</b>", "Non conosco «<b>x</b>»."),
        ("/sfida <", "Non conosco «<»."),
        ("/sfida lungo </i> 3", "Non conosco «</i>»."),
        ("/sfida @<b>", "Non conosco «@<b>»."),
        ("/sfida ²", "Non conosco «²»."),
        ("/start sfida_<b>_&amp;", "Non conosco «<b>»."),
        ("/sfida " + "&" * 4000, f"Non conosco «{'&' * 29}…»."),
    ],
    ids=["bold", "stray-lt", "closing-tag", "username", "superscript", "deep-link", "long"],
)
async def test_unknown_sfida_words_are_named_back_literally(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, typed: str, shown: str
) -> None:
    (text,) = (await bot.say(group, anna, typed)).texts()
    assert text.startswith(shown)
    assert T.GENERIC_ERROR not in text
    assert await bot.repo.list_challenges(group.id) == []


async def test_a_private_sfida_with_markup_explains_instead_of_linking(
    bot: BotUnderTest, anna: FakeUser
) -> None:
    private = bot.tg.private_chat(anna)
    (text,) = (await bot.say(private, anna, "/sfida <b>x</b>")).texts()
    assert text.startswith("Non conosco «<b>x</b>».")


async def _board_with_anna_to_move(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> StoredMessage:
    bot.dice.queue_opening(3, 1)
    return await start_match(bot, group, anna, bruno, "classico 1")


@pytest.mark.parametrize(
    ("typed", "reply", "shown"),
    [
        ("/mossa <script>", False, "Non capisco <script>. Usa la forma da/a"),
        ("/mossa 13/7 <b>", False, "Non capisco 13/7 <b>. Usa la forma da/a"),
        ("</code>", True, "Non capisco </code>. Usa la forma da/a"),
        ("8/5 &amp; 6/5", True, "Non capisco 8/5 &amp; 6/5. Usa la forma da/a"),
        ("/mossa " + "<" * 4000, False, f"Non capisco {'<' * 99}…. Usa la forma da/a"),
        ("13/7 " * 819, True, "13/7 " * 19 + "13/7…: non hai pedine da muovere sul punto 13."),
    ],
    ids=["script", "bold", "reply-code", "reply-entity", "long-command", "long-reply"],
)
async def test_typed_moves_with_markup_are_echoed_literally_and_change_nothing(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    typed: str,
    reply: bool,
    shown: str,
) -> None:
    board = await _board_with_anna_to_move(bot, group, anna, bruno)
    stored = await bot.stored(group)
    reaction = await bot.say(group, anna, typed.strip(), reply_to=board if reply else None)
    (text,) = reaction.texts()
    assert text.startswith(shown)
    assert utf16_length(text) <= T.MAX_MESSAGE_CHARS
    assert await bot.stored(group) == stored


async def test_typed_move_with_markup_from_a_member_not_playing_is_refused_plainly(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    await _board_with_anna_to_move(bot, group, anna, bruno)
    (text,) = (await bot.say(group, carla, "/mossa <b>8/5</b>")).texts()
    assert text == TT.NOT_SEATED  # she plays at no table of the group


@pytest.mark.parametrize("argument", ["<b>classico</b>", "<", "&lt;lungo"])
async def test_rules_with_markup_argument_show_the_overview(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, argument: str
) -> None:
    (text,) = (await bot.say(group, anna, f"/regole {argument}")).texts()
    assert text.startswith("Regole")
