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
        ("anna", "/mossa 13/3", "13/3 non è una mossa legale con questo tiro."),
        ("anna", "/mossa 8/5", "8/5 non è una mossa legale con questo tiro."),
        ("anna", "/mossa ciao", "Non capisco ciao. Usa la forma da/a"),
        ("anna", "/mossa", "Scrivi la mossa dopo il comando"),
        ("bruno", "/mossa 24/21 24/23", "Adesso non puoi muovere: aspetta il tuo turno"),
        ("carla", "/mossa 8/5 6/5", "Non stai giocando questa partita."),
        ("anna", "reply:24/14", "24/14 non è una mossa legale con questo tiro."),
    ],
    ids=["too-far", "incomplete", "not-notation", "empty", "not-on-turn", "not-a-player", "reply"],
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
