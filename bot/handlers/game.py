"""Playing: the board's buttons, typed moves (/mossa or a reply to the board), resigning,
re-posting the board (/partita) and exporting the position (/posizione)."""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot import board, flow, timeouts
from bot import callback_data as cd
from bot.handlers import challenge
from bot.handlers.common import alert, reply
from bot.services import services
from bot.table import Table
from bot.texts import messages as T
from engine import AmbiguousMoveError, EngineError, NotationError, Phase, Variant
from engine.gnubg import MatchInfo, encode_match, encode_position
from engine.longid import encode as encode_long
from engine.notation import match_play
from storage import CorruptGameError, GameNotFoundError, StoredGame, VersionConflictError

log = logging.getLogger(__name__)

#: Actions that start a new stretch of play: the caption's notes restart from them.
FRESH_NOTES = {"r", "d", "t", "p", "c", "x", "m", "y"}


async def on_game_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and update.effective_chat is not None
    svc = services(context)
    try:
        btn = cd.decode_game(cd.split(query.data))
    except cd.BadCallbackData:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    chat_id = update.effective_chat.id
    try:
        stored = await svc.repo.load_game(chat_id)
    except CorruptGameError:
        log.exception("corrupted game in chat %s", chat_id)
        await alert(query, T.GENERIC_ERROR)
        return
    if btn.action == "m" and (stored is None or stored.game_id != btn.game_id):
        await challenge.rematch(update, context, btn)  # the match was archived: a new one
        return
    if stored is None or stored.game_id != btn.game_id or stored.version != btn.version:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    table = Table.from_doc(stored.doc)
    index = table.index_of(query.from_user.id)
    if index is None:
        await alert(query, T.ALERT_NOT_A_PLAYER)
        return
    base = table.fresh_notes() if btn.action in FRESH_NOTES else table
    result = flow.apply_action(base, index, btn.action, btn.args)
    if isinstance(result, flow.Refusal):
        await alert(query, result.alert)
        return
    after = result
    if btn.action == "r":
        after = flow.roll(after, svc.dice)
    after = flow.advance(after, svc.dice, svc.rng)
    try:
        saved = await board.commit(svc, stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await query.answer()
    timeouts.follow(context.job_queue, saved, after)
    if query.message is not None and query.message.message_id != stored.board_message_id:
        # A confirmation sent as its own message (/abbandona): retire its buttons.
        await board.retire_keyboard(context, chat_id, query.message.message_id)
    await board.show(context, saved.game, after)


async def _load_for_player(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> tuple[StoredGame, Table, int] | None:
    assert update.effective_user is not None
    stored = await _load_or_explain(update, context)
    if stored is None:
        return None
    table = Table.from_doc(stored.doc)
    index = table.index_of(update.effective_user.id)
    if index is None:
        await reply(update, T.ALERT_NOT_A_PLAYER)
        return None
    return stored, table, index


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
        stored = await services(context).repo.load_game(msg.chat_id)
    except CorruptGameError:
        return
    if stored is None or stored.board_message_id != msg.reply_to_message.message_id:
        return  # a reply to some other message of ours: not a move
    await play_typed(update, context, msg.text or "")


async def play_typed(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
    loaded = await _load_for_player(update, context)
    if loaded is None:
        return
    stored, table, index = loaded
    svc = services(context)
    state = table.state
    if state.phase is not Phase.MOVE or table.actor.user_id != table.players[index].user_id:
        await reply(update, T.MOVE_NOT_NOW)
        return
    assert state.turn_start is not None
    try:
        play = match_play(text, state.turn_start[state.turn], state.legal_plays())
    except NotationError:
        await reply(update, T.move_bad_notation(text))
        return
    except AmbiguousMoveError as exc:
        await reply(update, T.move_ambiguous(text, exc.options))
        return
    except EngineError:  # illegal, or not possible with this roll
        await reply(update, T.move_illegal(text))
        return
    before = table
    after = flow.play_whole(replace(table, resign_pending=None).fresh_notes(), play)
    after = flow.advance(after, svc.dice, svc.rng)
    try:
        saved = await board.commit(svc, stored, before, after)
    except (VersionConflictError, GameNotFoundError):
        await reply(update, T.ALERT_STALE_BUTTON)
        return
    timeouts.follow(context.job_queue, saved, after)
    await board.show(context, saved.game, after)


async def on_resign_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/abbandona: ask for confirmation, saying what it will cost."""
    loaded = await _load_for_player(update, context)
    if loaded is None:
        return
    stored, table, index = loaded
    result = flow.apply_action(table, index, "a", ())
    if isinstance(result, flow.Refusal):
        await reply(update, result.alert)
        return
    try:
        saved = await board.commit(services(context), stored, table, result)
    except (VersionConflictError, GameNotFoundError):
        await reply(update, T.ALERT_STALE_BUTTON)
        return
    timeouts.follow(context.job_queue, saved, result)
    await board.show(context, saved.game, result)
    side = result.state.side_of(index)
    cost = result.state.resign_value(side)
    game_id, version = saved.game.game_id, saved.game.version
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    T.BTN_RESIGN_YES,
                    callback_data=cd.GameButton(game_id, version, "y").encode(),
                ),
                InlineKeyboardButton(
                    T.BTN_RESIGN_NO,
                    callback_data=cd.GameButton(game_id, version, "n").encode(),
                ),
            ]
        ]
    )
    assert update.effective_message is not None
    await update.effective_message.reply_html(
        T.resign_confirm(cost.points, cost.kind.value), reply_markup=markup
    )


async def _load_or_explain(update: Update, context: ContextTypes.DEFAULT_TYPE) -> StoredGame | None:
    """The chat's game, or None after telling the user why there is none to show."""
    assert update.effective_chat is not None
    try:
        stored = await services(context).repo.load_game(update.effective_chat.id)
    except CorruptGameError:
        await reply(update, T.GENERIC_ERROR)
        return None
    if stored is None:
        await reply(update, T.NO_GAME_RUNNING)
    return stored


async def on_board_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/partita: post the board again at the bottom of the chat, retiring the old one."""
    stored = await _load_or_explain(update, context)
    if stored is None:
        return
    table = Table.from_doc(stored.doc)
    old = stored.board_message_id
    await board.post(context, stored, table)
    if old is not None:
        await board.retire_keyboard(context, stored.chat_id, old)


async def on_position_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/posizione: GNU Backgammon Position ID and Match ID (classic), our id for long."""
    stored = await _load_or_explain(update, context)
    if stored is None:
        return
    s = Table.from_doc(stored.doc).state
    on_roll, other = s.checkers[s.turn], s.checkers[s.turn.other]
    if s.variant is Variant.CLASSIC:
        info = MatchInfo(
            cube_value=s.cube_value,
            cube_owner=None if s.cube_owner is None else int(s.cube_owner),
            on_roll=int(s.turn),
            crawford=s.crawford,
            game_state=2 if s.is_over else 1,
            turn=int(s.turn),
            double_offered=s.phase is Phase.DOUBLED,
            dice=s.dice if s.phase is Phase.MOVE and s.dice else (0, 0),
            match_length=s.config.length if s.config.length > 1 else 0,
            score=(s.score[s.player_of(0)], s.score[s.player_of(1)]),  # type: ignore[arg-type]
        )
        text = (
            "<b>Posizione (GNU Backgammon)</b>\n"
            f"Position ID: <code>{encode_position(other, on_roll)}</code>\n"
            f"Match ID: <code>{encode_match(info)}</code>"
        )
    else:
        text = (
            f"<b>Posizione (Backgammon lungo)</b>\nID: <code>{encode_long(other, on_roll)}</code>"
        )
    await reply(update, text)
