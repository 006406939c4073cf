"""The money game (classic "partita libera"): a double taken, gammons counted times the
cube, the Jacoby rule on and off, the result line and the statistics kept apart."""

from __future__ import annotations

from bot.texts import messages as T
from engine import MatchConfig, ResultKind, Variant

from .conftest import BotUnderTest, post_challenge
from .fake_telegram import FakeChat, FakeTelegram, FakeUser


async def _bruno_on_turn(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, words: str
) -> None:
    """A money game: Anna opens with 3-1, then Bruno is at the start of his turn."""
    bot.dice.queue_opening(3, 1)
    card = await post_challenge(bot, group, anna, words)
    jacoby = T.JACOBY_OFF if "senza jacoby" in words else T.JACOBY_ON
    settings = f"Partita libera · con cubo · {jacoby}"
    assert settings in (card.text or ""), card.text
    await bot.press(group, bruno, card, "Accetta")
    board = bot.board(group)
    head = (board.caption or "").splitlines()[0]
    assert T.MONEY_GAME in head and "Partita singola" not in head
    await bot.say(group, anna, "/mossa 8/5 6/5")
    board = bot.board(group)
    assert board.button_texts[:2] == ["🎲 Tira i dadi", "Raddoppia"]  # the cube is in play


async def _bruno_resigns_a_gammon(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, lost: int
) -> str:
    """Bruno offers a gammon, worth ``lost`` points; Anna accepts. The board's caption."""
    reaction = await bot.press(group, bruno, bot.board(group), "Abbandona")
    assert reaction.alert is None
    table = await bot.table(group)
    assert table.open_offer is not None and table.open_offer.message_id is not None
    prompt = bot.tg.message(group, table.open_offer.message_id)
    gammon = T.resign_level_button(ResultKind.GAMMON, lost)
    assert gammon in prompt.button_texts, prompt.button_texts
    await bot.press(group, bruno, prompt, gammon)
    prompt = bot.tg.message(group, table.open_offer.message_id)
    await bot.press(group, anna, prompt, "Accetto l'abbandono")
    board = bot.board(group)
    assert "Partita successiva" not in board.button_texts  # one game: nothing follows
    return board.caption or ""


async def _stats(bot: BotUnderTest, group: FakeChat, user: FakeUser) -> str:
    (text,) = (await bot.say(group, user, "/statistiche")).texts()
    return text


async def test_a_double_taken_then_a_gammon_scores_four_points(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _bruno_on_turn(bot, group, anna, bruno, "libera")
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    bot.dice.queue_rolls((6, 4))
    await bot.press(group, anna, bot.board(group), "Accetto")
    assert "cubo 2" in (bot.board(group).caption or "").splitlines()[0]
    caption = await _bruno_resigns_a_gammon(bot, group, anna, bruno, 4)
    assert "Bruno abbandona: Anna vince 4 punti (gammon)." in caption
    assert T.JACOBY_NOTE not in caption  # the cube was turned: the gammon counts
    assert "Punteggio:" not in caption  # no match score in a money game
    anna_stats, bruno_stats = await _stats(bot, group, anna), await _stats(bot, group, bruno)
    assert "Partite libere: 1 · punti vinti: 4 · persi: 0" in anna_stats
    assert "Partite libere: 1 · punti vinti: 0 · persi: 4" in bruno_stats
    assert "Punteggio Elo" not in anna_stats  # a money game is no match: no rating


async def test_with_jacoby_a_gammon_without_a_double_counts_one_point(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _bruno_on_turn(bot, group, anna, bruno, "libera")
    caption = await _bruno_resigns_a_gammon(bot, group, anna, bruno, 1)
    assert "Bruno abbandona: Anna vince 1 punto (gammon)." in caption
    assert T.JACOBY_NOTE in caption
    assert "Partite libere: 1 · punti vinti: 1 · persi: 0" in await _stats(bot, group, anna)


async def test_without_jacoby_a_gammon_counts_two_points(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _bruno_on_turn(bot, group, anna, bruno, "libera senza jacoby")
    caption = await _bruno_resigns_a_gammon(bot, group, anna, bruno, 2)
    assert "Bruno abbandona: Anna vince 2 punti (gammon)." in caption
    assert T.JACOBY_NOTE not in caption
    assert "Partite libere: 1 · punti vinti: 2 · persi: 0" in await _stats(bot, group, anna)


async def test_the_computer_plays_a_money_game_from_gioca(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    chat = tg.private_chat(anna)
    (sent,) = (await bot.say(chat, anna, "/gioca")).of("sendMessage")
    menu = tg.message(chat, sent.result["message_id"])
    for label in ("Backgammon classico", "Facile"):
        assert (await bot.press(chat, anna, menu, label)).alert is None
        menu = tg.message(chat, menu.message_id)
    assert menu.button_texts[0] == T.BTN_CARD_MONEY
    await bot.press(chat, anna, menu, T.BTN_CARD_MONEY)
    await bot.press(chat, anna, tg.message(chat, menu.message_id), T.BTN_START_GAME)
    table = await bot.table(chat)
    assert table.state.config == MatchConfig(Variant.CLASSIC, 0)  # Jacoby on by default
    assert T.MONEY_GAME in (bot.board(chat).caption or "").splitlines()[0]
