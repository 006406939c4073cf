"""Taps that explain themselves: a refused board button says why and names the steps
legal now; the old picture left by a first step told by the answer alone keeps working."""

from __future__ import annotations

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser


async def test_a_die_already_played_is_refused_with_its_reason_and_the_steps_left(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(5, 3)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    step_5 = board.data_for("13/8")
    reaction = await bot.press(group, anna, board, "13/8")
    assert reaction.alert is None
    assert reaction.answer is not None and "ora muovi col 3" in (reaction.answer.get("text") or "")
    assert bot.board(group).callback_data == board.callback_data  # not redrawn

    # The old picture's 13/8 again: the 5 is played. The refusal says so and what is left.
    reaction = await bot.press(group, anna, board, data=step_5)
    assert reaction.alert is not None
    assert reaction.alert.startswith("Il 5 l'hai già giocato: ora muovi col 3. Ora puoi: ")
    for step in ("24/21", "13/10", "8/5", "6/3"):
        assert step in reaction.alert
    table = await bot.table(group)
    assert [(s.src, s.dst) for s in table.state.steps] == [(13, 8)]  # nothing changed

    # Every 3 on that picture still plays.
    reaction = await bot.press(group, anna, board, "8/5")
    assert reaction.alert is None
    table = await bot.table(group)
    assert table.state.play_complete


async def test_a_roll_on_a_board_behind_the_game_in_the_same_turn_is_played(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """Anna's offer to resign saves the game while Bruno's board still shows Tira: his
    press is legal in the saved game, so it is played instead of "the table changed"."""
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 3")
    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, bot.board(group), "6/5")
    await bot.press(group, anna, bot.board(group), "✅ Conferma")
    rolling = bot.board(group)
    roll = rolling.data_for("🎲 Tira i dadi")
    before = await bot.stored(group)
    await bot.say(group, anna, "/abbandona")
    after = await bot.stored(group)
    assert before is not None and after is not None and after.version > before.version

    bot.dice.queue_rolls((5, 2))
    reaction = await bot.press(group, bruno, rolling, data=roll, forge=True)
    assert reaction.alert is None
    table = await bot.table(group)
    assert table.state.dice == (5, 2) and table.actor.name == "Bruno"
