"""/analisi and the 📊 button on the final board: the analysis of the chat's last game.

The analysis takes seconds of CPU, so it runs in a worker process (``Services.analyst``)
and in a task of its own: the handler returns at once, other chats are never kept
waiting and neither is this one (the next game can start meanwhile). When the result
takes longer than ``NOTICE_AFTER_SECONDS`` the reader is told "analisi in corso…" first.

Where it goes: in a private chat, there; in a group, privately to whoever asked, unless
both players chose at the challenge to have it in the group (``Table.shared_analysis``).
If the bot may not write to the user privately (they never opened the chat with it), the
group is told how to open it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import BrokenExecutor

from telegram import Bot, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import finished, tables
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.adapters.ptb_types import BotApp
from bot.handlers import full_review
from bot.handlers.common import acknowledge, alert, can_write_privately
from bot.services import Services, bot_data, services
from bot.texts import review as R
from bot.texts import review_document as D
from bot.views import presenter, review
from engine import EngineError

log = logging.getLogger(__name__)
#: The chat type of a board in an inline message (not one of Telegram's chat types).
INLINE = "inline"

#: Past this many seconds without a result, the reader is told the analysis is running.
NOTICE_AFTER_SECONDS = 1.0
#: A whole game takes a few seconds; past this the worker is given up on.
ANALYSIS_BUDGET_SECONDS = 120.0
#: ``/start analisi``: the deep link that opens the private chat from a group.
START_WORD = "analisi"


def running(app: BotApp) -> set[asyncio.Task[None]]:
    """The analyses still being computed or sent (tests wait for them)."""
    return bot_data(app).analyses


async def on_analysis_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/analisi: the analysis of the chat's last finished game."""
    chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
    room = places.of_update(update)
    assert chat is not None and user is not None and msg is not None and room is not None
    place = await tables.for_history(services(context), room, user.id)  # the caller's table
    full = [word.lower() for word in context.args or ()] == [D.FULL_WORD]
    await request(context, place, chat.type, user, reply_to=msg.message_id, full=full)


async def on_analysis_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """📊 on the final board: the same as /analisi, its short answers in the pop-up."""
    query, place = update.callback_query, places.of_update(update)
    assert query is not None and place is not None
    if place.is_inline:  # the board sits in someone else's chat: the analysis goes privately
        await request(context, place, INLINE, query.from_user, reply_to=None, query=query)
        return
    chat = update.effective_chat
    assert chat is not None
    with contextlib.suppress(cd.BadCallbackDataError):  # the table of the board pressed
        game_id = cd.decode_game(cd.split(query.data)).game_id
        place = await tables.for_game(services(context), place, game_id)
    await request(context, place, chat.type, query.from_user, reply_to=None, query=query)


async def request(
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    chat_type: str,
    user: User,
    *,
    reply_to: int | None,
    query: CallbackQuery | None = None,
    full: bool = False,
) -> None:
    """Find the game, choose where the analysis goes, and start it in the background.

    The game is the place's (a forum topic's own); answers go to the same place. ``full``:
    the full review's document instead of the analysis (``bot.handlers.full_review``)."""
    svc = services(context)
    found = await finished.last_game(svc, place.key)
    if found is None:
        await _tell(context, place, R.ANALYSIS_NONE, R.ALERT_ANALYSIS_NONE, reply_to, query)
        return
    if query is not None and found.table.index_of(user.id) is None:
        await alert(query, R.ALERT_ANALYSIS_NOT_YOURS)  # the board's 📊 is its players'
        return
    chat_id = place.chat_id
    target = chat_id
    if chat_type != ChatType.PRIVATE and not found.table.shared_analysis:
        target = user.id
        if not await can_write_privately(context.bot, target):
            if chat_type == INLINE and query is not None:
                await alert(query, R.ALERT_WRITE_ME_FIRST)
                return
            if query is not None:
                await acknowledge(query)
            link = f"https://t.me/{context.bot.username}?start={START_WORD}"
            button = InlineKeyboardButton(R.BTN_OPEN_PRIVATE, url=link)
            await context.bot.send_message(
                text=R.ANALYSIS_OPEN_PRIVATE,
                parse_mode=ParseMode.HTML,
                reply_markup=InlineKeyboardMarkup([[button]]),
                reply_to_message_id=reply_to,
                **place.send(),
            )
            return
        await _tell(
            context, place, R.ANALYSIS_SENT_PRIVATELY, R.ALERT_ANALYSIS_PRIVATE, reply_to, query
        )
    elif query is not None:
        await acknowledge(query)
    here = reply_to if target == chat_id else None
    thread = place.thread_id if target == chat_id else None
    if full:
        if full_review.busy(context.application, target):
            await context.bot.send_message(target, D.ALREADY_RUNNING, message_thread_id=thread)
            return
        if full_review.just_sent(context.application, target, found):
            await context.bot.send_message(target, D.JUST_SENT, message_thread_id=thread)
            return
        full_review.start(
            context.application, context.bot, svc, target, found, thread_id=thread, reply_to=here
        )
        return
    tasks = running(context.application)
    name = f"analysis for {target}"
    if any(task.get_name() == name for task in tasks):
        return  # one at a time per reader: a second request would only queue the same work
    task = asyncio.create_task(
        deliver(context.bot, svc, target, found, here, thread_id=thread), name=name
    )
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def _tell(
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    text: str,
    popup: str,
    reply_to: int | None,
    query: CallbackQuery | None,
) -> None:
    """A short answer: in the pressed button's pop-up, else as a reply in the chat."""
    if query is not None:
        await alert(query, popup)
    else:
        await context.bot.send_message(
            text=text, parse_mode=ParseMode.HTML, reply_to_message_id=reply_to, **place.send()
        )


async def deliver(
    bot: Bot,
    svc: Services,
    target: int,
    game: finished.LastGame,
    reply_to: int | None,
    *,
    thread_id: int | None = None,
) -> None:
    """Compute the analysis in a worker; say it is running if it takes more than a
    second; then send the picture of the worst decision and the figures (into the forum
    topic ``thread_id`` of the chat ``target``, when given)."""
    try:
        job = asyncio.ensure_future(
            svc.analysis_pool.run(ANALYSIS_BUDGET_SECONDS, review.review_record, game.record_doc)
        )
        done, _ = await asyncio.wait({job}, timeout=NOTICE_AFTER_SECONDS)
        if not done:
            await bot.send_message(
                target,
                R.ANALYSIS_RUNNING,
                reply_to_message_id=reply_to,
                message_thread_id=thread_id,
            )
        try:
            reviewed = await job
        except (TimeoutError, BrokenExecutor, EngineError):
            log.exception("the analysis for chat %s failed", target)
            await bot.send_message(target, R.ANALYSIS_FAILED, message_thread_id=thread_id)
            return
        picture = review.worst_view(reviewed, game.table)
        if picture is not None:
            view, caption = picture
            key = (view, presenter.orientation(game.table))
            await svc.painter.pictures.send(
                key,
                lambda photo: bot.send_photo(
                    target,
                    photo,
                    caption=caption,
                    parse_mode=ParseMode.HTML,
                    message_thread_id=thread_id,
                ),
            )
        await bot.send_message(
            target,
            review.analysis_text(reviewed, game.table, game.state),
            parse_mode=ParseMode.HTML,
            message_thread_id=thread_id,
            reply_markup=full_review.button(game),  # every decision, as a document
        )
    except TelegramError:
        log.exception("could not send the analysis to chat %s", target)
    except Exception:  # a task of its own: nothing above it would report the failure
        log.exception("the analysis for chat %s stopped", target)
