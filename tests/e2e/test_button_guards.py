"""Presses the bot must refuse: the wrong person, an outdated turn-ending button, the second
click of a double click and hand-made callback data. Each refusal is a pop-up for the presser
only: the game, the board and the group's chat stay exactly as they were. A quick second step
on a board not yet redrawn is not refused: it is played when still legal."""

from __future__ import annotations

import pytest

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser, StoredMessage

NOT_YOUR_TURN = "Non è il tuo turno."
NOT_A_PLAYER = "Non stai giocando questa partita."
STALE = "Questo pulsante non è più valido."
NEXT_STEPS = " Ora puoi: 24/23, 24/21, 13/10, 8/7, 8/5, …"
NO_SIX = "Non hai un 6: muovi col 3 e 1." + NEXT_STEPS
BOARD_UPDATED = "Il tavolo è cambiato: guarda la posizione aggiornata e riprova."
UNKNOWN = "Questo pulsante non viene da una tavola del bot: usa quelli dell'ultima tavola."
GAME_OVER = "La partita di questo pulsante è finita: il pulsante non vale più."


async def _opening_3_1(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> StoredMessage:
    """A classic game where Anna won the opening with 3-1 and must move."""
    bot.dice.queue_opening(3, 1)
    board = await start_match(bot, group, anna, bruno, "classico 1")
    assert "Tocca ad Anna (" in (board.caption or "")
    assert "3-1" in (board.caption or "")
    return board


async def _unchanged(
    bot: BotUnderTest, group: FakeChat, board: StoredMessage, reaction_methods: list[str]
) -> None:
    """Only the pop-up was sent: no edit, no message; storage holds the same version."""
    assert reaction_methods == ["answerCallbackQuery"]
    assert bot.board(group).snapshot() == board.snapshot()


@pytest.mark.parametrize(
    ("presser", "alert"),
    [("bruno", NOT_YOUR_TURN), ("carla", NOT_A_PLAYER)],
    ids=["opponent-not-on-turn", "member-not-playing"],
)
async def test_press_by_wrong_member_is_refused_with_alert_and_changes_nothing(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    carla: FakeUser,
    presser: str,
    alert: str,
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    before = await bot.stored(group)
    messages_before = len(bot.tg.chat_messages(group))
    snapshot = board.snapshot()
    user = {"bruno": bruno, "carla": carla}[presser]
    reaction = await bot.press(group, user, board, "8/5")
    assert reaction.alert == alert
    assert reaction.methods == ["answerCallbackQuery"]
    assert bot.board(group).snapshot() == snapshot
    assert len(bot.tg.chat_messages(group)) == messages_before
    after = await bot.stored(group)
    assert after is not None and before is not None
    assert (after.version, after.doc) == (before.version, before.doc)


async def test_quick_second_tap_on_a_board_not_yet_redrawn_is_applied(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    old_data = board.data_for("6/5")
    reaction = await bot.press(group, anna, board, "8/5")
    assert reaction.alert is None
    assert "Mossa: 8/5" in (bot.board(group).caption or "")

    # A client still showing the first keyboard sends "6/5" drawn for the older version:
    # it is the same turn and the step is still legal, so it is played.
    reaction = await bot.press(group, anna, board, data=old_data, forge=True)
    assert reaction.alert is None
    table = await bot.table(group)
    assert [(s.src, s.dst) for s in table.state.steps] == [(8, 5), (6, 5)]
    assert "8/5 6/5" in (bot.board(group).caption or "")


async def test_outdated_confirm_is_refused_and_the_board_is_current(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    await bot.press(group, anna, board, "8/5")
    await bot.press(group, anna, bot.board(group), "6/5")
    ready = bot.board(group)
    confirm = ready.data_for("✅ Conferma")
    await bot.press(group, anna, ready, "↩ Annulla")
    stored = await bot.stored(group)
    snapshot = bot.board(group).snapshot()

    # Conferma ends a turn: only a button drawn for the stored version may do that.
    reaction = await bot.press(group, anna, ready, data=confirm, forge=True)
    assert reaction.alert == "La mossa non è completa: usa ancora i dadi che puoi giocare."
    await _unchanged(bot, group, bot.board(group), reaction.methods)
    assert bot.board(group).snapshot() == snapshot
    assert (await bot.stored(group)) == stored


async def test_double_click_applies_the_step_once_and_refuses_the_second(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    version = (await bot.stored(group)).version  # type: ignore[union-attr]
    data = board.data_for("8/5")
    first, second = await bot.press_together(group, [(anna, board, data), (anna, board, data)])
    assert first.answer is not None and first.alert is None
    # The second 8/5 would need a second 3: it really is illegal now.
    assert second.alert == "Il 3 l'hai già giocato: ora muovi col 1. Ora puoi: 24/23, 8/7, 6/5, 5/4"
    assert [r.method for r in first.of("editMessageMedia")] == ["editMessageMedia"]
    table = await bot.table(group)
    assert len(table.state.steps) == 1
    assert (await bot.stored(group)).version == version + 1  # type: ignore[union-attr]
    assert "Mossa: 8/5" in (bot.board(group).caption or "")


@pytest.mark.parametrize(
    ("forged", "alert"),
    [
        ("hello", UNKNOWN),
        ("g:1", UNKNOWN),
        ("g:x:y:s:8:5:3", UNKNOWN),
        ("g:{game}:{version}:s:8:5", UNKNOWN),
        ("g:{game}:{version}:zz", UNKNOWN),
        ("g:{game}:999:s:8:5:3", BOARD_UPDATED),
        ("g:999999:{version}:c", GAME_OVER),
        ("g:{game}:{version}:s:8:2:6", NO_SIX),
        ("g:{game}:{version}:s:99:-4:6", NO_SIX),
        ("g:{game}:{version}:s:24:18:6", NO_SIX),
        ("g:{game}:{version}:s:24:20:3", "Quel passo non è permesso qui." + NEXT_STEPS),
        ("g:{game}:{version}:c", "La mossa non è completa: usa ancora i dadi che puoi giocare."),
        ("g:{game}:{version}:x", "La partita è ancora in corso."),
        ("c:1:a", STALE),
        ("r:nessuna:regola", STALE),
        ("p:classic:facile:1", STALE),  # the computer set-up belongs in a private chat
        ("m:nulla", STALE),
    ],
)
async def test_forged_callback_data_is_refused_politely(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    forged: str,
    alert: str,
) -> None:
    board = await _opening_3_1(bot, group, anna, bruno)
    stored = await bot.stored(group)
    assert stored is not None
    data = forged.format(game=stored.game_id, version=stored.version)
    reaction = await bot.press(group, anna, board, data=data, forge=True)
    assert reaction.alert == alert
    await _unchanged(bot, group, board, reaction.methods)
    assert (await bot.stored(group)) == stored
