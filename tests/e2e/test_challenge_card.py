"""/sfida in a group opens a card: the challenger sets the game with buttons (pre-filled by
any words typed after the command) and launches it with one tap; nobody else may touch it."""

from __future__ import annotations

from bot.texts import messages as T
from bot.texts import tables as TT
from engine import MatchConfig, SeriesStart, Variant

from .conftest import LAUNCH, BotUnderTest
from .fake_telegram import FakeChat, FakeUser, StoredMessage

STALE = "Questo pulsante non è più valido."


async def _card(bot: BotUnderTest, group: FakeChat, user: FakeUser, text: str) -> StoredMessage:
    reaction = await bot.say(group, user, text)
    (sent,) = reaction.of("sendMessage")
    return bot.tg.message(group, sent.result["message_id"])


def _ticked(card: StoredMessage) -> list[str]:
    return [label for label in card.button_texts if label.startswith("✓ ")]


async def test_sfida_alone_opens_a_card_and_one_tap_launches_the_open_challenge(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    card = await _card(bot, group, anna, "/sfida")
    assert (card.text or "").startswith("Nuova sfida di Anna\n")
    assert "Backgammon classico · Partita singola · senza cubo · 10 minuti per turno" in (
        card.text or ""
    )
    assert "Accetta" not in card.button_texts  # not posted yet: nobody can take it
    assert _ticked(card) == ["✓ Classico", "✓ 1 partita", "✓ 10 min"]
    for label in ("Lungo", "3 punti", "30 s", "1 ora", "Nessun limite", LAUNCH, "Ritira la sfida"):
        assert label in card.button_texts, label
    assert await bot.stored(group) is None

    reaction = await bot.press(group, anna, card, LAUNCH)
    assert reaction.alert is None
    card = bot.tg.message(group, card.message_id)
    assert (card.text or "").startswith("Anna cerca un avversario.")
    assert card.button_texts == ["Accetta", "Ritira la sfida"]

    await bot.press(group, bruno, card, "Accetta")
    table = await bot.table(group)
    assert table.state.config == MatchConfig(Variant.CLASSIC, 1)
    assert [p.name for p in table.players] == ["Anna", "Bruno"]


async def test_words_prefill_the_card_and_its_buttons_change_every_setting(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    card = await _card(bot, group, anna, "/sfida lunga 3 30s")
    assert _ticked(card) == ["✓ Lungo", "✓ 3 punti", "✓ 30 s"]
    assert (
        "Backgammon lungo · Serie a 3 punti · Mars · senza ultimo lancio · "
        "Poi comincia chi perde · 30 secondi per turno"
    ) in (card.text or "")
    assert "Cubo: sì" not in card.button_texts  # no cube in long

    for label in ("5 punti", "Punteggio: Mars", "Ultimo lancio: no", "Poi comincia chi perde"):
        reaction = await bot.press(group, anna, card, label)
        assert reaction.alert is None, label
    reaction = await bot.press(group, anna, card, "1 min")
    card = bot.tg.message(group, card.message_id)
    assert _ticked(card) == ["✓ Lungo", "✓ 5 punti", "✓ 1 min"]
    assert {"Punteggio: Oin", "Ultimo lancio: sì", "Poi si comincia a turno"} <= set(
        card.button_texts
    )
    assert (
        "Serie a 5 punti · Oin · ultimo lancio · Poi si comincia a turno · 1 minuto per turno"
        in (card.text or "")
    )

    await bot.press(group, anna, card, LAUNCH)
    await bot.press(group, bruno, card, "Accetta")
    table = await bot.table(group)
    assert table.state.config == MatchConfig(
        Variant.LONG, 5, True, False, True, SeriesStart.ALTERNATE
    )
    assert table.turn_seconds == 60


async def test_classic_card_switches_the_cube_and_the_time_limit_off(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    card = await _card(bot, group, anna, "/sfida con cubo 7")
    assert "Match a 7 punti · con cubo" in (card.text or "")
    await bot.press(group, anna, card, "Cubo: sì")
    card = bot.tg.message(group, card.message_id)
    assert "Cubo: no" in card.button_texts
    assert "Match a 7 punti · senza cubo" in (card.text or "")
    await bot.press(group, anna, card, "Nessun limite")
    card = bot.tg.message(group, card.message_id)
    assert "✓ Nessun limite" in card.button_texts
    reaction = await bot.press(group, anna, card, "✓ Nessun limite")  # a second tap
    assert reaction.alert is None and reaction.of("editMessageText") == []
    assert "senza limite di tempo" in (card.text or "")
    await bot.press(group, anna, card, LAUNCH)
    await bot.press(group, bruno, card, "Accetta")
    table = await bot.table(group)
    assert table.state.config.cube is False and table.state.config.length == 7
    assert table.turn_seconds is None


async def test_only_the_challenger_may_change_or_launch_the_card(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    card = await _card(bot, group, anna, "/sfida")
    before, launch = card.text, card.data_for(LAUNCH)
    for label in ("Lungo", LAUNCH):
        reaction = await bot.press(group, bruno, card, label)
        assert reaction.alert == T.ALERT_NOT_YOUR_CARD
    assert bot.tg.message(group, card.message_id).text == before
    # Accepting a card that is not launched yet is refused even with forged data.
    forged = card.data_for("Ritira la sfida")[: -len("x")] + "a"
    reaction = await bot.press(group, bruno, card, data=forged, forge=True)
    assert reaction.alert == STALE
    assert await bot.stored(group) is None
    # The card's data on another message of the bot does nothing there.
    (help_sent,) = (await bot.say(group, anna, "/aiuto")).of("sendMessage")
    other = help_sent.result["message_id"]
    reaction = await bot.press(group, anna, other, data=card.data_for("Lungo"), forge=True)
    assert reaction.alert == STALE

    await bot.press(group, anna, card, "Ritira la sfida")
    assert bot.tg.message(group, card.message_id).text == "Anna ha ritirato la sfida."
    reaction = await bot.press(group, anna, card, data=launch, forge=True)
    assert reaction.alert == STALE


async def test_a_card_for_a_replied_to_member_becomes_a_personal_challenge(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    hello = bot.tg.send_message(group, bruno, "chi gioca?")
    card = await _card(bot, group, anna, "/sfida classico 3")
    assert "Avversario" not in (card.text or "")
    reply = await bot.say(group, anna, "/sfida lungo", reply_to=hello)
    assert reply.texts() == [TT.OWN_CHALLENGE_OPEN]  # one card at a time per challenger
    await bot.press(group, anna, card, "Ritira la sfida")

    reaction = await bot.say(group, anna, "/sfida lungo", reply_to=hello)
    card = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    assert "Avversario: Bruno\n" in (card.text or "")
    await bot.press(group, anna, card, LAUNCH)
    card = bot.tg.message(group, card.message_id)
    assert (card.text or "").startswith("Anna sfida Bruno!")
    assert card.button_texts == ["Accetta", "Rifiuta", "Ritira la sfida"]
    reaction = await bot.press(group, carla, card, "Accetta")
    assert reaction.alert == T.ALERT_NOT_FOR_YOU
    await bot.press(group, bruno, card, "Accetta")
    assert (await bot.table(group)).state.config.variant is Variant.LONG


async def test_help_lists_the_words_of_sfida(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser
) -> None:
    (text,) = (await bot.say(group, anna, "/aiuto")).texts()
    for word in ("lunga", "con cubo", "senza cubo", "30s", "almeno 30 secondi", "@nome"):
        assert word in text, word
    (refusal,) = (await bot.say(group, anna, "/sfida 10s")).texts()
    assert refusal.startswith("Il tempo per turno va da 30 secondi")
