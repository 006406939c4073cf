"""Moves written in notation: /mossa, or a text reply to the board message."""

from __future__ import annotations

import pytest

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser, StoredMessage


async def _opening_3_1(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> StoredMessage:
    """Anna wins the opening with 3-1; Bruno's first roll will be 6-4."""
    bot.dice.queue_opening(3, 1)
    bot.dice.queue_rolls((6, 4))
    return await start_match(bot, group, anna, bruno, "classico 1")


async def test_typed_moves_with_command_and_with_reply_to_board(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    version = (await bot.stored(group)).version  # type: ignore[union-attr]

    reaction = await bot.say(group, anna, "/mossa 8/5 6/5")
    assert reaction.methods == ["editMessageMedia"]  # the board changes; nothing is posted
    caption = bot.board(group).caption or ""
    assert "Anna ha giocato 3-1: 8/5 6/5." in caption
    assert "Tocca a Bruno (" in caption and "6-4" in caption
    table = await bot.table(group)
    assert table.actor.user_id == bruno.id
    assert (await bot.stored(group)).version > version  # type: ignore[union-attr]

    reaction = await bot.say(group, bruno, "24/18 13/9", reply_to=board)
    assert reaction.methods == ["editMessageMedia"]
    caption = bot.board(group).caption or ""
    played = next(line for line in caption.splitlines() if line.startswith("Bruno ha giocato"))
    assert played.startswith("Bruno ha giocato 6-4: ")
    assert sorted(played.removesuffix(".").split(": ")[1].split()) == ["13/9", "24/18"]
    assert bot.board(group).message_id == board.message_id


@pytest.mark.parametrize(
    ("who", "text", "explanation"),
    [
        ("anna", "/mossa 13/3", "13/3: non corrisponde al tiro 3-1"),
        ("anna", "/mossa 8/5", "8/5: la mossa non è completa: con questo tiro devi usare 2 dadi."),
        ("anna", "/mossa 13/10 13/12", "il punto 12 è chiuso, lo tiene l'avversario."),
        ("anna", "/mossa 8/5* 6/5", "colpisci sul punto 5, ma lì non c'è una pedina"),
        ("anna", "/mossa 24/22/21", "24/22/21: non corrisponde al tiro 3-1"),
        ("anna", "/mossa 20/17 21/20", "non hai pedine da muovere sul punto"),
        ("anna", "/mossa ciao", "Non capisco ciao. Usa la forma da/a"),
        ("anna", "/mossa", "Scrivi la mossa dopo il comando"),
        ("bruno", "/mossa 24/21 24/23", "Adesso non puoi muovere: aspetta il tuo turno"),
        ("carla", "/mossa 8/5 6/5", "Non stai giocando a nessun tavolo di questa chat."),
        ("anna", "reply:24/14", "24/14: non corrisponde al tiro 3-1"),
    ],
    ids=[
        "wrong-dice",
        "incomplete",
        "closed-point",
        "star-without-hit",
        "false-landing",
        "no-checker",
        "not-notation",
        "empty",
        "not-on-turn",
        "not-a-player",
        "reply",
    ],
)
async def test_wrong_typed_move_is_explained_in_italian_and_changes_nothing(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    who: str,
    text: str,
    explanation: str,
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    stored = await bot.stored(group)
    snapshot = board.snapshot()
    user = {"anna": anna, "bruno": bruno, "carla": carla}[who]
    if text.startswith("reply:"):
        reaction = await bot.say(group, user, text.removeprefix("reply:"), reply_to=board)
    else:
        reaction = await bot.say(group, user, text)
    assert reaction.methods == ["sendMessage"]
    (answer,) = reaction.of("sendMessage")
    assert explanation in answer.result["text"]
    assert answer.result["reply_to_message"]["from"]["id"] == user.id  # it answers that user
    assert bot.board(group).snapshot() == snapshot
    assert (await bot.stored(group)) == stored


async def test_reply_to_another_bot_message_is_not_a_move(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _opening_3_1(bot, group, anna, bruno)
    card = bot.tg.chat_messages(group, from_bot=True)[0]  # the accepted challenge card
    assert card.photo is None
    stored = await bot.stored(group)
    reaction = await bot.say(group, anna, "8/5 6/5", reply_to=card)
    assert reaction.requests == []
    assert (await bot.stored(group)) == stored


async def test_a_dash_is_read_as_a_slash(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _opening_3_1(bot, group, anna, bruno)
    reaction = await bot.say(group, anna, "/mossa 24-21 6-5")
    assert reaction.methods == ["editMessageMedia"]
    assert "Anna ha giocato 3-1: 24/21 6/5." in (bot.board(group).caption or "")


@pytest.mark.parametrize(
    ("text", "explanation"),
    [
        ("24/21 24/23", "dalla testa (punto 24) esce una sola pedina per turno"),
        ("24/21* 13/12", "nel backgammon lungo non si colpisce"),
    ],
    ids=["head-rule", "no-hitting"],
)
async def test_long_typed_moves_are_refused_with_long_rules(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    text: str,
    explanation: str,
) -> None:
    bot.dice.queue_opening(3, 1)  # Anna takes White; the first two turns are forced
    bot.dice.queue_rolls((6, 5), (5, 2), (1, 3))
    await start_match(bot, group, anna, bruno, "lungo 1")
    assert "Tocca ad Anna (Bianco)\n3-1 · " in (bot.board(group).caption or "")
    stored = await bot.stored(group)
    (answer,) = (await bot.say(group, anna, f"/mossa {text}")).texts()
    assert explanation in answer
    assert (await bot.stored(group)) == stored
