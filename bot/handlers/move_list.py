"""/mosse and the board's "Mosse" button: the game's plays so far, both sides, in notation.

The command answers in the chat it was written in. The button, on a group's board, sends
the list privately to whoever pressed it (a group's message budget is for the board); one
who never wrote to the bot gets the last plays in a pop-up instead. In a private chat the
list comes in the chat itself.
"""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from bot import pipeline, tables
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.game import move_list
from bot.game.table import Table
from bot.handlers.common import acknowledge, alert, reply, unreadable_game
from bot.services import services
from bot.texts import messages as T
from bot.texts import move_list as M
from engine import EngineError
from storage import CorruptGameError

#: Seconds a worker may take to list a game's plays: far beyond the ~0.1 s it needs.
JOB_SECONDS = 10.0


async def _listed(context: ContextTypes.DEFAULT_TYPE, table: Table) -> tuple[str, str] | None:
    """The list as a message and as a pop-up, made in a worker (None if that failed)."""
    try:
        return await services(context).computer.run(JOB_SECONDS, move_list.job, table.to_doc())
    except (TimeoutError, EngineError):
        return None


async def _table(context: ContextTypes.DEFAULT_TYPE, key: int, game_id: int | None) -> Table | None:
    """The place's game (when ``game_id`` is None or matches it), else that finished game
    (the last one for None)."""
    svc = services(context)
    loaded = await pipeline.load(svc, key)
    if loaded is not None and game_id in (None, loaded.stored.game_id):
        return loaded.table
    if game_id is None:  # /mosse: no game under way, so the chat's last finished one
        ids = await svc.repo.finished_game_ids(key, limit=1)
        if not ids:
            return None
        game_id = ids[0]
    finished = await svc.repo.load_finished_game(key, game_id)
    return None if finished is None else Table.from_doc(finished.doc)


async def on_moves_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    room, user = places.of_update(update), update.effective_user
    assert room is not None
    # In a group: the caller's own table (or the last one they played at).
    place = room if user is None else await tables.for_history(services(context), room, user.id)
    try:
        table = await _table(context, place.key, None)
    except CorruptGameError as exc:
        await reply(update, unreadable_game(exc))
        return
    if table is None:
        await reply(update, T.NO_GAME_RUNNING)
        return
    listed = await _listed(context, table)
    await reply(update, T.GENERIC_ERROR if listed is None else listed[0])


async def on_moves_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query, place = update.callback_query, places.of_update(update)
    assert query is not None and place is not None
    try:
        game_id: int | None = cd.decode_moves(query.data)
    except cd.BadCallbackDataError:
        game_id = None
    table = None
    if game_id is not None and not place.is_inline:
        place = await tables.for_game(services(context), place, game_id)  # the board's table
        try:
            table = await _table(context, place.key, game_id)
        except CorruptGameError:
            table = None
    listed = None if table is None else await _listed(context, table)
    if listed is None:
        await alert(query, M.STALE)
        return
    text, short = listed
    chat = update.effective_chat
    if chat is not None and chat.type == ChatType.PRIVATE:
        await acknowledge(query)
        await context.bot.send_message(place.chat_id, text, parse_mode="HTML")
        return
    try:
        await context.bot.send_message(query.from_user.id, text, parse_mode="HTML")
    except (Forbidden, BadRequest):
        await alert(query, short)
        return
    await acknowledge(query, M.SENT_PRIVATELY)
