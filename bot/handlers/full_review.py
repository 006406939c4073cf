"""The full review of a game (📄 Analisi completa under an analysis, or /analisi completa).

Every decision of both sides with the play made, the best one, their equities and the
loss, and a picture per error, as one HTML file sent as a document
(``bot.views.review_document``). Judging every decision takes seconds of CPU, so the
document is built in the analysis worker pool and sent from a task of its own: the press
is answered at once and the event loop never waits. One document at a time per reader.

The button sits on the analysis message, which may be in a private chat while the game was
played in a group: its data names the game's place, match and game number
(``a:<key>:<game id>:<number>``), and it is acted on only when the pressed message's own
keyboard carries exactly that data (Telegram sends the message as it is, so forged data
pressed anywhere else names nothing).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import BrokenExecutor

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Update,
)
from telegram.constants import ChatAction, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import finished
from bot.adapters import callback_data as cd
from bot.adapters.file_ids import send_reusing
from bot.adapters.ptb_types import BotApp
from bot.file_jobs import FileJobs, SentKey
from bot.handlers.common import acknowledge, alert, text_message
from bot.services import Services, bot_data, services
from bot.texts import messages as T
from bot.texts import review_document as D
from bot.views.review_document import ReviewDocument, review_document_job
from engine import EngineError
from storage import StorageError

log = logging.getLogger(__name__)

REVIEW = "review"
#: Judging every decision of a long game and drawing its errors: far beyond what it needs.
FULL_REVIEW_BUDGET_SECONDS = 300.0


def button(game: finished.LastGame) -> InlineKeyboardMarkup:
    """The keyboard under an analysis: the full review of the same game."""
    data = cd.full_review_button(game.key, game.game_id, game.state.game_number)
    return InlineKeyboardMarkup([[InlineKeyboardButton(D.BTN_FULL_REVIEW, callback_data=data)]])


def _task_name(target: int) -> str:
    return f"full review for {target}"


def sent_key(target: int, game: finished.LastGame) -> SentKey:
    """How the document of ``game`` sent to ``target`` is remembered (``bot.file_jobs``)."""
    return (target, REVIEW, game.game_id, game.state.game_number)


def just_sent(app: BotApp, target: int, game: finished.LastGame) -> bool:
    """Was this very document sent there moments ago (a double tap)?"""
    refusal, _ = bot_data(app).file_jobs.check(sent_key(target, game))
    return refusal


def busy(app: BotApp, target: int) -> bool:
    """Is a full review already being built for this reader?"""
    return any(task.get_name() == _task_name(target) for task in bot_data(app).analyses)


def start(
    app: BotApp,
    bot: Bot,
    svc: Services,
    target: int,
    game: finished.LastGame,
    *,
    thread_id: int | None,
    reply_to: int | None = None,
) -> None:
    """Build and send the document in a task of its own (tests wait for the analyses'
    tasks, this one among them)."""
    data = bot_data(app)
    tasks = data.analyses
    task = asyncio.create_task(
        deliver(bot, svc, data.file_jobs, target, game, thread_id=thread_id, reply_to=reply_to),
        name=_task_name(target),
    )
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def _pressed_exactly(query: CallbackQuery) -> bool:
    """Does the pressed message's own keyboard carry this very data (see the module doc)?"""
    message = text_message(query)
    if message is None or message.reply_markup is None:
        return False
    return any(
        b.callback_data == query.data for row in message.reply_markup.inline_keyboard for b in row
    )


async def on_full_review_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """📄 Analisi completa under an analysis: the document of that game, sent here."""
    query = update.callback_query
    assert query is not None
    try:
        key, game_id, number = cd.decode_full_review(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    message = text_message(query)
    if message is None or not _pressed_exactly(query):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    target = message.chat.id
    if busy(context.application, target):
        await alert(query, D.ALERT_FULL_REVIEW_RUNNING)
        return
    svc = services(context)
    try:
        found = await finished.finished_match(svc, key, game_id)
    except (StorageError, EngineError):
        log.warning("the full review's game %s of %s cannot be read", game_id, key)
        found = None
    kept = (
        None
        if found is None
        else next((g for g in found.games if g.record.game_number == number), None)
    )
    if found is None or kept is None:
        await alert(query, D.ALERT_EXPIRED)
        return
    record = kept.record
    game = finished.LastGame(found.table, record.initial_state(), record.to_doc(), key, game_id)
    if just_sent(context.application, target, game):
        await alert(query, D.ALERT_JUST_SENT)
        return
    await acknowledge(query, D.ALERT_FULL_REVIEW_RUNNING)
    start(
        context.application,
        context.bot,
        svc,
        target,
        game,
        thread_id=message.message_thread_id if message.is_topic_message else None,
    )


async def deliver(
    bot: Bot,
    svc: Services,
    jobs: FileJobs,
    target: int,
    game: finished.LastGame,
    *,
    thread_id: int | None,
    reply_to: int | None = None,
) -> None:
    """Send the document to ``target`` (into the forum topic ``thread_id``, when given):
    by the file id Telegram gave the same document sent there before, else built in a
    worker and uploaded."""
    key = sent_key(target, game)
    _, file_id = jobs.check(key)
    built: list[ReviewDocument] = []

    async def fresh() -> InputFile:
        try:
            await bot.send_chat_action(
                target, ChatAction.UPLOAD_DOCUMENT, message_thread_id=thread_id
            )
        except TelegramError as exc:  # only a courtesy: the document follows anyway
            log.info("chat action failed in %s: %s", target, exc)
        doc: ReviewDocument = await svc.analysis_pool.run(
            FULL_REVIEW_BUDGET_SECONDS, review_document_job, game.record_doc, game.table
        )
        built.append(doc)
        return InputFile(doc.data, filename=doc.file_name)

    title = T.escape(D.title(T.VARIANT_NAMES[game.state.variant], game.state.game_number))
    try:
        message = await send_reusing(
            file_id,
            fresh,
            lambda media: bot.send_document(
                target,
                media,
                caption=D.full_review_caption(title),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
                reply_to_message_id=reply_to,
            ),
            lambda: jobs.remember(key, None),
        )
        jobs.remember(key, message.document.file_id if message.document else None)
        for doc in built:
            log.info(
                "full review for chat %s: %d decisions, %d pictures, %d KB, %.1f s of CPU",
                target,
                doc.decisions,
                doc.pictures,
                len(doc.data) // 1024,
                doc.seconds,
            )
    except (TimeoutError, BrokenExecutor, EngineError):
        log.exception("the full review for chat %s failed", target)
        try:
            await bot.send_message(target, D.FULL_REVIEW_FAILED, message_thread_id=thread_id)
        except TelegramError:
            log.exception("could not tell chat %s", target)
    except TelegramError:
        log.exception("could not send the full review to chat %s", target)
    except Exception:  # a task of its own: nothing above it would report the failure
        log.exception("the full review for chat %s stopped", target)
