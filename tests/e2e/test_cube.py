"""The doubling cube in a classic match: a double dropped, and one taken then redoubled."""

from __future__ import annotations

from .conftest import FINISHED_GAME_BUTTONS, BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser, StoredMessage


async def _bruno_may_double(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> StoredMessage:
    """A match to 3: Anna opens with 3-1, then Bruno is at the start of his turn."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    board = bot.board(group)
    caption = board.caption or ""
    assert "Tocca a Bruno (" in caption and "Tira i dadi oppure raddoppia." in caption
    assert board.button_texts[:2] == ["🎲 Tira i dadi", "Raddoppia"]
    return board


async def test_double_dropped_gives_the_point_and_the_next_game_starts(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _bruno_may_double(bot, group, anna, bruno)
    reaction = await bot.press(group, bruno, board, "Raddoppia")
    assert reaction.alert is None
    board = bot.board(group)
    assert "Bruno offre il raddoppio a 2. Accetti o rinunci?" in (board.caption or "")
    assert "Tocca ad Anna (" in (board.caption or "")
    assert board.button_texts == ["Accetto", "Rinuncio"]

    refused = await bot.press(group, bruno, board, "Accetto")  # not his to answer
    assert refused.alert == "Non è il tuo turno."

    await bot.press(group, anna, board, "Rinuncio")
    board = bot.board(group)
    caption = board.caption or ""
    assert "Anna rinuncia e cede 1 punto: Bruno vince la partita." in caption
    assert "Punteggio: Anna 0 - 1 Bruno (match a 3 punti)" in caption
    assert board.button_texts == ["Partita successiva", *FINISHED_GAME_BUTTONS]
    (text,) = (await bot.say(group, bruno, "/statistiche")).texts()
    assert "Punti vinti: 1 · persi: 0" in text

    bot.dice.queue_opening(2, 5)
    await bot.press(group, anna, board, "Partita successiva")
    caption = bot.board(group).caption or ""
    assert "Punteggio: Anna 0 - 1 Bruno (match a 3 punti)" in caption
    assert "Tiro d'apertura: Bruno 5, Anna 2. Comincia Bruno." in caption
    assert "cubo 1" in caption.splitlines()[0]


async def test_double_taken_then_redoubled_by_owner_and_dropped(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _bruno_may_double(bot, group, anna, bruno)
    await bot.press(group, bruno, board, "Raddoppia")
    bot.dice.queue_rolls((6, 4))
    await bot.press(group, anna, board, "Accetto")
    board = bot.board(group)
    caption = board.caption or ""
    assert "Anna accetta: il cubo ora vale 2 ed è suo." in caption
    assert "cubo 2" in caption.splitlines()[0]
    # Bruno no longer owns the cube, so his dice were rolled for him at once.
    assert "Tocca a Bruno (" in caption and "6-4" in caption
    assert "Raddoppia" not in board.button_texts

    bot.dice.queue_rolls((2, 1))
    await bot.say(group, bruno, "/mossa 24/18 13/9")
    board = bot.board(group)
    assert "Tocca ad Anna (" in (board.caption or "")
    assert "Raddoppia" in board.button_texts  # Anna owns the cube: she may redouble

    await bot.press(group, anna, board, "Raddoppia")
    assert "Anna offre il raddoppio a 4." in (bot.board(group).caption or "")
    await bot.press(group, bruno, board, "Rinuncio")
    caption = bot.board(group).caption or ""
    assert "Bruno rinuncia e cede 2 punti: Anna vince la partita." in caption
    assert "Punteggio: Anna 2 - 0 Bruno (match a 3 punti)" in caption
    assert bot.board(group).button_texts == ["Partita successiva", *FINISHED_GAME_BUTTONS]


async def test_offered_cube_on_the_picture_and_the_caption_says_it_once(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    from bot.views import presenter

    board = await _bruno_may_double(bot, group, anna, bruno)
    assert "8/5 6/5" in (board.caption or "")  # Anna's play, told before Bruno acts
    await bot.press(group, bruno, board, "Raddoppia")
    table = await bot.table(group)
    view = presenter.board_view(table)
    bruno_side = table.state.side_of(1).label
    assert (view.cube_value, view.cube_offered_by, view.cube_active) == (2, bruno_side, True)
    caption = bot.board(group).caption or ""
    assert caption.count("offre il raddoppio a 2") == 1

    bot.dice.queue_rolls((6, 4))
    await bot.press(group, anna, bot.board(group), "Accetto")
    caption = bot.board(group).caption or ""
    # Bruno's dice were rolled for him; Anna's acceptance stays in view until he moves.
    assert "6-4" in caption and "Anna accetta" in caption
    view = presenter.board_view(await bot.table(group))
    assert view.cube_offered_by is None and view.cube_owner == table.state.side_of(0).label


async def test_caption_keeps_the_opponents_play_after_rolling_and_the_final_banner(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    from bot.views import presenter

    board = await _bruno_may_double(bot, group, anna, bruno)
    bot.dice.queue_rolls((5, 2))
    await bot.press(group, bruno, board, "🎲 Tira i dadi")
    caption = bot.board(group).caption or ""
    assert "8/5 6/5" in caption and "5-2" in caption  # Anna's play is still told

    await bot.press(group, bruno, bot.board(group), "Abbandona")
    table = await bot.table(group)
    assert table.open_offer is not None
    assert table.open_offer.message_id is not None
    prompt = bot.tg.message(group, table.open_offer.message_id)
    await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, anna, prompt, "Accetto l'abbandono")
    table = await bot.table(group)
    view = presenter.board_view(table)
    assert view.banner == ("Anna vince 1 punto · vittoria semplice", "Anna 1 – 0 Bruno")
    assert view.turn is None
