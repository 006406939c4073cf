"""Moving at the pace of a real table: one tap for a whole checker or a whole play,
automatic confirmation as a player's own setting, and few board edits per turn."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.game import shortcuts

from .conftest import BotUnderTest, game_action, start_match, turn_holder
from .fake_telegram import FakeChat, FakeUser, StoredMessage

SHORTCUT = "w"


def shortcut_buttons(board: StoredMessage) -> dict[str, str]:
    """Label -> callback data of the board's multi-step buttons."""
    return {
        b["text"]: b["callback_data"]
        for b in board.buttons
        if game_action(b.get("callback_data", "")) == SHORTCUT
    }


async def test_a_whole_checker_button_plays_both_dice_with_one_checker(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 5)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    assert "▶ 24/13" in shortcut_buttons(board)
    reaction = await bot.press(group, anna, board, "▶ 24/13")
    assert reaction.alert is None
    table = await bot.table(group)
    assert [(s.src, s.dst) for s in table.state.steps] in (
        [(24, 18), (18, 13)],
        [(24, 19), (19, 13)],
    )
    # Confirmation is off for these players: Conferma is offered, the turn has not passed.
    assert "✅ Conferma" in bot.board(group).button_texts


async def test_a_complete_play_button_plays_the_roll_and_auto_confirm_passes_the_turn(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await bot.say(group, anna, "/impostazioni")
    settings = bot.tg.last_bot_message(group)
    assert "Conferma automatica: no" in (settings.text or "")
    await bot.press(group, anna, settings, "Attiva la conferma automatica")
    assert "Conferma automatica: sì" in (bot.tg.message(group, settings.message_id).text or "")

    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    await bot.press(group, anna, board, "8/5")
    # Bruno's next roll: one that leaves him only a few complete plays.
    after = (await bot.table(group)).state.step((6, 5, 1)).confirm()
    roll = next(
        (d1, d2)
        for d1 in range(1, 7)
        for d2 in range(1, d1)
        if shortcuts.complete_plays(after.roll(d1, d2))
    )
    bot.dice.queue_rolls(roll)
    await bot.press(group, anna, bot.board(group), "6/5")
    caption = bot.board(group).caption or ""
    assert "Anna ha giocato 3-1: 8/5 6/5" in caption
    assert "Tocca a Bruno" in caption  # passed without Conferma

    plays = shortcut_buttons(bot.board(group))
    expected = {f"▶ {c.label}": c for c in shortcuts.complete_plays(after.roll(*roll))}
    assert set(plays) == set(expected)
    label, cut = next(iter(expected.items()))
    await bot.press(group, bruno, bot.board(group), data=plays[label])
    table = await bot.table(group)
    assert table.state.steps == cut.steps  # the whole roll in one tap (Bruno confirms)
    assert table.state.play_complete

    # The setting is Anna's own, kept in storage: it survives a restart of the bot.
    await bot.restart()
    await bot.say(group, anna, "/impostazioni")
    assert "Conferma automatica: sì" in (bot.tg.last_bot_message(group).text or "")
    await bot.say(group, bruno, "/impostazioni")
    assert "Conferma automatica: no" in (bot.tg.last_bot_message(group).text or "")


@pytest.fixture
def bot_options(request: pytest.FixtureRequest) -> dict[str, object]:
    """Players who never chose get automatic confirmation in the whole-game test only."""
    return {"auto_confirm": "whole_game" in request.node.name, "seed": 5}


@pytest.mark.slow
async def test_a_whole_game_with_shortcuts_stays_within_the_edit_budget(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """Players who use the one-tap buttons: about one board edit per turn in the group."""
    rng = random.Random(3)
    await start_match(bot, group, anna, bruno, "classico 1")
    start = len(bot.tg.requests)
    turns = 0
    taps: list[int] = []
    on_turn: FakeUser | None = None
    refused = 0
    for _ in range(600):
        board = bot.board(group)
        if "Rivincita" in board.button_texts:
            break
        user = turn_holder(board.caption or "", (anna, bruno))
        assert user is not None, board.caption
        if user is not on_turn:
            turns += 1
            taps.append(0)
            on_turn = user
        cuts = list(shortcut_buttons(board).values())
        data = [d for d in board.callback_data if game_action(d) == "s"]
        if "🎲 Tira i dadi" in board.button_texts:
            choice = board.data_for("🎲 Tira i dadi")
        else:
            choice = rng.choice(cuts) if cuts else rng.choice(data)
        reaction = await bot.press(group, user, board, data=choice)
        taps[-1] += 1
        if reaction.alert is not None:
            # A step whose die the previous tap used, or a one-tap play drawn for the
            # turn's start (the board waits for the turn's end to be redrawn): refused,
            # and the board is redrawn for the next try.
            # It says why: the die is played, or the one-tap play does not go on from the
            # step made.
            assert ": ora muovi col" in reaction.alert, reaction.alert
            refused += 1
    else:
        raise AssertionError("the game did not end")
    group_limited = [
        r
        for r in bot.tg.calls(since=start)
        if r.params.get("chat_id") == group.id and r.method.startswith(("send", "edit"))
    ]
    per_turn = len(group_limited) / turns
    assert per_turn <= 1.5, (per_turn, turns, refused)
    assert statistics.median(taps) <= 2


async def test_a_picture_shown_again_is_not_uploaded_again(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 5)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    first_picture = board.photo
    stepped = await bot.press(group, anna, board, "▶ 24/13")
    (edit,) = stepped.of("editMessageMedia")
    assert edit.files  # a new position: its picture is uploaded

    await bot.press(group, anna, bot.board(group), "↩ Annulla")  # back to 24/18
    undone = await bot.press(group, anna, bot.board(group), "↩ Annulla")
    (edit,) = undone.of("editMessageMedia")
    assert not edit.files  # the starting position again: Telegram's file id is reused
    assert bot.board(group).photo == first_picture
    assert bot.painter.pictures.reused >= 1


async def test_a_first_step_the_keyboard_can_finish_is_told_by_the_answer_alone(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    """5-2: after 13/8 every step of the 2 is already a button (the 8 point had checkers),
    so the board is not redrawn until the turn ends: one group edit saved."""
    bot.dice.queue_opening(5, 2)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    before = board.snapshot()
    first = await bot.press(group, anna, board, "13/8")
    assert first.methods == ["answerCallbackQuery"]
    assert first.answer is not None and not first.answer["show_alert"]
    assert first.answer["text"] == "✔ 13/8 · ora muovi col 2"
    assert bot.board(group).snapshot() == before

    second = await bot.press(group, anna, board, "13/11")  # on the same keyboard
    assert second.alert is None
    assert [r.method for r in second.requests].count("editMessageMedia") == 1
    table = await bot.table(group)
    assert [(s.src, s.dst) for s in table.state.steps] == [(13, 8), (13, 11)]
    stored = await bot.stored(group)
    assert stored is not None and stored.shown_version == stored.version
