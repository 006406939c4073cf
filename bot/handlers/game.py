"""Playing: typed moves (/mossa or a reply to the board), resigning,
re-posting the board (/partita) and exporting the position (/posizione). The board's
buttons: `bot.handlers.board_buttons`."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from telegram import Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot import pipeline, reach, tables
from bot.adapters import places
from bot.adapters.places import Place
from bot.game import flow
from bot.game.actions import Action
from bot.game.positions import position_text
from bot.game.table import Table
from bot.handlers import history
from bot.handlers.common import reply, unreadable_game
from bot.services import Services, services
from bot.texts import messages as T
from bot.texts import tables as TT
from bot.views import presenter
from engine import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    NotationError,
    Phase,
    read_play,
)
from storage import (
    CorruptGameError,
    GameNotFoundError,
    VersionConflictError,
)

log = logging.getLogger(__name__)


def _room(update: Update) -> Place:
    """Where a command was written: its chat, or its forum topic (a room of its own)."""
    place = places.of_update(update)
    assert place is not None
    return place


async def _here(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Place:
    """The table a command is about: the caller's own in a group (else the room)."""
    room, user = _room(update), update.effective_user
    if user is None:
        return room
    return await tables.for_user(services(context), room, user.id)


async def show_current(svc: Services, chat_id: int) -> None:
    """Redraw whatever the chat's game is now (after losing a race to another writer)."""
    with contextlib.suppress(CorruptGameError):
        loaded = await pipeline.load(svc, chat_id)
        if loaded is not None:
            svc.painter.show(loaded.stored, loaded.table)


async def _load_for_player(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> tuple[pipeline.Loaded, int] | None:
    """The chat's game and the index of the user who wrote, or None after explaining why."""
    assert update.effective_user is not None
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return None
    index = loaded.table.index_of(update.effective_user.id)
    if index is None:
        await reply(update, T.ALERT_NOT_A_PLAYER)
        return None
    return loaded, index


async def on_move_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mossa 13/7 8/5"""
    text = " ".join(context.args or [])
    if not text.strip():
        await reply(update, T.MOVE_USAGE)
        return
    await play_typed(update, context, text)


async def on_board_reply(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A text reply to the board message is a typed move."""
    msg = update.effective_message
    assert msg is not None and msg.reply_to_message is not None
    if (
        msg.reply_to_message.from_user is None
        or msg.reply_to_message.from_user.id != context.bot.id
    ):
        return
    try:
        loaded = await pipeline.load(services(context), (await _here(update, context)).key)
    except CorruptGameError:
        return
    if loaded is None or loaded.stored.board_message_id != msg.reply_to_message.message_id:
        return  # a reply to some other message of ours: not a move
    await play_typed(update, context, msg.text or "")


async def play_typed(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
    """A typed move (/mossa, a reply to the board, plain text in private) for the whole roll."""
    found = await _load_for_player(update, context)
    if found is None:
        return
    loaded, index = found
    stored, table = loaded.stored, loaded.table
    state = table.state
    if state.phase is not Phase.MOVE or table.actor.user_id != table.players[index].user_id:
        await reply(update, T.MOVE_NOT_NOW)
        return
    assert state.turn_start is not None
    try:
        play = read_play(state, text)
    except NotationError:
        await reply(update, T.move_bad_notation(text))
        return
    except AmbiguousMoveError as exc:
        await reply(update, T.move_ambiguous(text, exc.options))
        return
    except IllegalMoveError as exc:
        assert state.dice is not None
        await reply(
            update,
            T.move_refused(text, exc.problem, state.dice, point=exc.point, need=exc.need),
        )
        return
    except EngineError:
        await reply(update, T.move_illegal(text))
        return
    after = flow.play_whole(flow.played_on(table, index).fresh_notes(), play)
    try:
        await pipeline.save_and_show(context, stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        await reply(update, T.ALERT_BOARD_UPDATED)
        await show_current(services(context), stored.chat_id)


async def on_resign_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/abbandona: open an offer to resign, asked in a short message of its own."""
    found = await _load_for_player(update, context)
    if found is None:
        return
    loaded, index = found
    result = flow.apply_action(loaded.table, index, Action.RESIGN, ())
    if isinstance(result, flow.Refusal):
        await reply(update, result.alert)
        return
    assert update.effective_message is not None
    await open_offer(
        context,
        await _here(update, context),
        loaded,
        result,
        reply_to=update.effective_message.message_id,
    )


async def open_offer(
    context: ContextTypes.DEFAULT_TYPE,
    place: Place,
    loaded: pipeline.Loaded,
    after: Table,
    *,
    reply_to: int | None,
) -> None:
    """Post the resign prompt, then save the offer with the prompt's message id (so the
    prompt can be answered, and tidied once the offer is answered or moot)."""
    stored = loaded.stored
    shown = presenter.resign_prompt(after, stored.game_id, stored.version)
    assert shown is not None and after.resign is not None
    text, markup = shown
    sent = await context.bot.send_message(
        text=text,
        parse_mode=ParseMode.HTML,
        reply_markup=markup,
        reply_to_message_id=reply_to,
        **place.send(),
    )
    after = replace(after, resign=replace(after.resign, message_id=sent.message_id))
    try:
        await pipeline.save_and_show(context, stored, loaded.table, after)
    except (VersionConflictError, GameNotFoundError):
        # The game changed meanwhile: this prompt never became an offer.
        with contextlib.suppress(TelegramError):
            await context.bot.edit_message_text(
                T.ALERT_BOARD_UPDATED, chat_id=place.chat_id, message_id=sent.message_id
            )
        await show_current(services(context), place.key)


async def open_offer_on_board(
    context: ContextTypes.DEFAULT_TYPE, loaded: pipeline.Loaded, after: Table
) -> None:
    """An inline table cannot post a prompt: the offer is asked on the board itself."""
    assert after.resign is not None
    after = replace(after, resign=replace(after.resign, message_id=places.INLINE_BOARD_ID))
    try:
        await pipeline.save_and_show(context, loaded.stored, loaded.table, after)
    except (VersionConflictError, GameNotFoundError):
        await show_current(services(context), loaded.stored.chat_id)


async def _load_or_explain(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> pipeline.Loaded | None:
    """The caller's game, or None after telling the user why there is none to show. In a
    group that is the table the caller plays at: whoever plays at none is told so."""
    svc, room, user = services(context), _room(update), update.effective_user
    place = room
    if user is not None and tables.hosts_tables(room):
        seat = await tables.seat(svc, room, user.id)
        if seat is None:
            await reply(update, await _unseated(svc, room, listed=False))
            return None
        place = seat
    try:
        loaded = await pipeline.load(svc, place.key)
    except CorruptGameError as exc:
        await reply(update, unreadable_game(exc))
        return None
    if loaded is None:
        await reply(update, T.NO_GAME_RUNNING)
    return loaded


async def _unseated(svc: Services, room: Place, *, listed: bool) -> str:
    """What someone who plays at no table of ``room`` is told: that the room's own game
    cannot be read, else the tables in play (``listed``) or that they play at none."""
    try:
        await pipeline.load(svc, room.key)
    except CorruptGameError as exc:
        return unreadable_game(exc)
    lines = await tables.lines(svc, room)
    if not lines:
        return T.NO_GAME_RUNNING
    return TT.tables_for_spectator(lines) if listed else TT.NOT_SEATED


async def on_board_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/partita: post the board again at the bottom of the chat; the old one says so.

    A game adjourned because its forum topic was closed (its clock stopped) resumes here:
    once the board is posted again, the player on turn gets a fresh turn clock. In a group
    someone who plays at none of its tables gets the list of the tables in play; with no
    game in progress it lists the last match's games, numbered for /rivedi N and the like."""
    room, user = _room(update), update.effective_user
    if user is not None and tables.hosts_tables(room):
        svc = services(context)
        if await tables.seat(svc, room, user.id) is None:
            text = await _unseated(svc, room, listed=True)
            if text == T.NO_GAME_RUNNING and await history.list_when_no_game(update, context):
                return
            await reply(update, text)
            return
    elif await history.list_when_no_game(update, context):
        return
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return
    painter = services(context).painter
    old = loaded.stored.board_message_id
    try:
        await painter.post(loaded.stored, loaded.table)
    except BadRequest as exc:
        if not places.topic_gone(exc):
            raise
        await painter.adjourn(loaded.stored.chat_id, str(exc))  # still closed: stays adjourned
        return
    await reach.restart_clock(context.application, loaded.stored, loaded.table)  # adjourned
    if old is not None:  # its caption would still say whose turn it is and what to press
        place = places.of_game(loaded.stored.chat_id, None, loaded.table.topic, loaded.table.group)
        await painter.retire_board(place.chat_id, old, T.BOARD_MOVED)
    await history.list_after_board(update, context, loaded)


async def on_position_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/posizione: GNU Backgammon Position ID and Match ID (classic), our id for long;
    ``/posizione N``: the final position of the match's game N."""
    if context.args:
        await history.on_position_of_game(update, context)
        return
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return
    await reply(update, position_text(loaded.table.state))
