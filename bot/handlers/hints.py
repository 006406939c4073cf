"""Hints: /suggerimento and the 💡 button advise on the decision of the player on turn.

Every decision has one: the roll being played (the best plays), and the cube, before
rolling when the player may double and when a double waits for their answer. Each is
valued where the game stands, the match score and the cube, and says so.

A hint is available against the computer, and between people only when both agreed at the
challenge (``Table.hints``). The search runs in the computer's worker pool, never on the
event loop. A play hint is a picture of the position with the best play drawn as numbered
arrows, and a caption listing the best plays with their value; a cube hint is a short
message with the advice and the equities. Asking changes nothing in the game, so it needs
no version check beyond "this decision is still the player's".
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import CallbackQuery, Update
from telegram.constants import ParseMode
from telegram.ext import ContextTypes

from bot import pipeline, tables
from bot.adapters import places
from bot.computer import suggest, suggest_cube
from bot.game.table import Table
from bot.handlers.common import acknowledge, alert, can_write_privately, reply, unreadable_game
from bot.services import services
from bot.texts import hints as H
from bot.texts import messages as T
from bot.texts import review as R
from bot.views import presenter
from engine import Phase, Play, format_play, to_dict
from engine.ai import cube_available_to_hint
from render import Arrow
from storage import CorruptGameError

log = logging.getLogger(__name__)

#: The search of a hint is a Difficile move's: a few seconds at most, even on a busy host.
HINT_BUDGET_SECONDS = 20.0


def refusal(table: Table, index: int) -> tuple[str, str] | None:
    """(pop-up, message) saying why player ``index`` may not have a hint now, or None."""
    if not table.hints_allowed:
        return R.ALERT_HINTS_OFF, R.HINTS_OFF
    state = table.state
    me = table.players[index]
    if table.actor.user_id != me.user_id or me.is_computer:
        return R.ALERT_HINT_NOT_NOW, R.HINT_NOT_NOW
    if state.phase is not Phase.MOVE and not cube_available_to_hint(state):
        return R.ALERT_HINT_NOT_NOW, R.HINT_NOT_NOW
    return None


def arrows(table: Table, play: Play) -> tuple[Arrow, ...]:
    """The steps of ``play`` as numbered arrows, in the order they are made."""
    side = presenter.render_side(table.state.turn)
    return tuple(Arrow(side, s.src, s.dst, str(i)) for i, s in enumerate(play.steps, start=1))


async def send_hint(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    table: Table,
    reply_to: int | None,
    *,
    thread_id: int | None = None,
) -> None:
    """The hint of the decision on turn, searched in a worker: the best plays with their
    picture, or the cube's advice (into the forum topic ``thread_id``, when given)."""
    if table.state.phase is not Phase.MOVE:
        await send_cube_hint(context, chat_id, table, reply_to, thread_id=thread_id)
        return
    svc = services(context)
    state = table.state
    if state.steps:
        state = state.reset_turn()  # the hint is for the whole roll, from its start
    at_start = replace(table, state=state)
    name = table.actor.name
    plays = state.legal_plays()
    if len(plays) <= 1:
        text = R.hint_only_play(name, format_play(plays[0])) if plays else R.hint_no_play(name)
        await context.bot.send_message(
            chat_id,
            text,
            parse_mode=ParseMode.HTML,
            reply_to_message_id=reply_to,
            message_thread_id=thread_id,
        )
        return
    try:
        best = await svc.computer.run(HINT_BUDGET_SECONDS, suggest, to_dict(state))
    except TimeoutError:
        await _failed(context, chat_id, reply_to, thread_id)
        return
    assert state.dice is not None
    notations = [format_play(p) for p, _ in best.plays]
    caption = H.checker_hint(name, state.dice, state.variant, best, notations)
    view = replace(presenter.board_view(at_start), arrows=arrows(at_start, best.plays[0][0]))
    view = replace(view, last_play=())
    key = (view, presenter.orientation(table))
    await svc.painter.pictures.send(
        key,
        lambda photo: context.bot.send_photo(
            chat_id,
            photo,
            caption=caption,
            parse_mode=ParseMode.HTML,
            reply_to_message_id=reply_to,
            message_thread_id=thread_id,
        ),
    )


async def _failed(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, reply_to: int | None, thread_id: int | None
) -> None:
    log.warning("a hint in chat %s ran out of time", chat_id)
    await context.bot.send_message(
        chat_id, R.HINT_FAILED, reply_to_message_id=reply_to, message_thread_id=thread_id
    )


async def send_cube_hint(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    table: Table,
    reply_to: int | None,
    *,
    thread_id: int | None = None,
) -> None:
    """The cube's advice for the player on turn (about to roll, or doubled), searched in a
    worker, with the equities it rests on."""
    svc = services(context)
    try:
        advice = await svc.computer.run(HINT_BUDGET_SECONDS, suggest_cube, to_dict(table.state))
    except TimeoutError:
        await _failed(context, chat_id, reply_to, thread_id)
        return
    await context.bot.send_message(
        chat_id,
        H.cube_hint(table.actor.name, table.state.variant, advice),
        parse_mode=ParseMode.HTML,
        reply_to_message_id=reply_to,
        message_thread_id=thread_id,
    )


async def on_hint_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/suggerimento: the best plays for the roll of the player who asks."""
    chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
    room = places.of_update(update)
    assert chat is not None and user is not None and msg is not None and room is not None
    place = await tables.for_user(services(context), room, user.id)  # the caller's own game
    try:
        loaded = await pipeline.load(services(context), place.key)
    except CorruptGameError as exc:
        await reply(update, unreadable_game(exc))
        return
    if loaded is None:
        await reply(update, T.NO_GAME_RUNNING)
        return
    index = loaded.table.index_of(user.id)
    if index is None:
        await reply(update, T.ALERT_NOT_A_PLAYER)
        return
    refused = refusal(loaded.table, index)
    if refused is not None:
        await reply(update, refused[1])
        return
    await send_hint(
        context, chat.id, loaded.table, msg.message_id, thread_id=places.topic_thread(msg)
    )


async def on_hint_button(
    query: CallbackQuery, context: ContextTypes.DEFAULT_TYPE, table: Table, index: int
) -> None:
    """The 💡 button on the board (its game, player and turn already checked)."""
    refused = refusal(table, index)
    if refused is not None:
        await alert(query, refused[0])
        return
    message = query.message
    if message is None:  # an inline board: the hint goes to the player privately
        user_id = query.from_user.id
        if not await can_write_privately(context.bot, user_id):
            await alert(query, R.ALERT_WRITE_ME_FIRST)
            return
        await acknowledge(query)
        await send_hint(context, user_id, table, None)
        return
    await acknowledge(query)
    await send_hint(
        context, message.chat.id, table, message.message_id, thread_id=places.topic_thread(message)
    )
