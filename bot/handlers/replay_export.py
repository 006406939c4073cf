"""/rivedi and /esporta, and the Rivedi / Esporta buttons of a finished game's board.

Both work on the chat's latest match with a finished game, as ``bot.finished`` finds it
(the records storage keeps after each game and the one the match's table holds, with the
players' names). Building a replay
draws some fifty boards and building a match file replays every game through the rules,
so both run in the computer's worker processes; the press is answered at once, and the
chat shows "sending a file" while the worker draws. One job per chat at a time: a second
press while the first one runs is refused politely rather than queued.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any

from telegram import Chat, InputFile, Update
from telegram.constants import ChatAction, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import tables
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.adapters.file_ids import send_reusing
from bot.file_jobs import FileJobs
from bot.finished import finished_match
from bot.handlers import history
from bot.handlers.common import acknowledge, alert, can_write_privately, reply
from bot.services import bot_data, services
from bot.texts import replay_export as RX
from bot.views.replay import export_job, replay_gif_job
from engine import EngineError, wants_sgf
from storage import StorageError

log = logging.getLogger(__name__)

#: Seconds a worker may take for one replay or file; far beyond the ~2 s they need.
JOB_TIMEOUT = 60.0
REPLAY, EXPORT = "replay", "export"


def _jobs(context: ContextTypes.DEFAULT_TYPE) -> FileJobs:
    return bot_data(context.application).file_jobs


async def _replay(
    context: ContextTypes.DEFAULT_TYPE,
    where: Where,
    game_id: int | None,
    number: int | None,
    *,
    exact: bool = False,
) -> str | None:
    """Build and send the replay; the refusal's text when there is nothing to send.

    ``exact``: game ``number`` or none (a command's argument); a button's number falls
    back to the match's last game."""
    chat = where.send_to
    svc = services(context)
    found = await finished_match(svc, where.key, game_id)
    if found is None:
        return RX.NO_FINISHED_GAME
    record = next((r for r in found.records if r.game_number == number), found.records[-1])
    if exact:
        try:
            record = history.pick("rivedi", found, number).record
        except history.BadNumberError as bad:
            return str(bad)
    key = (chat.id, REPLAY, found.game_id, record.game_number)
    refusal, file_id = _jobs(context).check(key)
    if refusal:
        return RX.REPLAY_JUST_SENT
    names = found.names

    async def gif() -> InputFile:
        await _chat_action(context, where, ChatAction.UPLOAD_VIDEO)
        data = await svc.computer.run(
            JOB_TIMEOUT, replay_gif_job, record.to_doc(), names, found.bottom_player
        )
        return InputFile(data, filename=f"tavola-partita-{record.game_number}.gif")

    message = await send_reusing(  # the file id of one sent here before, if Telegram has it
        file_id,
        gif,
        lambda media: context.bot.send_animation(
            chat.id,
            media,
            caption=RX.replay_caption(names[0], names[1], record.game_number),
            parse_mode="HTML",
            message_thread_id=where.thread_id,
        ),
        lambda: _jobs(context).remember(key, None),
    )
    _jobs(context).remember(key, message.animation.file_id if message.animation else None)
    return None


async def _export(
    context: ContextTypes.DEFAULT_TYPE, where: Where, game_id: int | None
) -> str | None:
    chat = where.send_to
    svc = services(context)
    found = await finished_match(svc, where.key, game_id)
    if found is None:
        return RX.NO_FINISHED_GAME
    key = (chat.id, EXPORT, found.game_id, len(found.records))
    refusal, file_id = _jobs(context).check(key)
    if refusal:
        return RX.EXPORT_JUST_SENT

    async def match_file() -> InputFile:
        await _chat_action(context, where, ChatAction.UPLOAD_DOCUMENT)
        docs: list[dict[str, Any]] = [r.to_doc() for r in found.records]
        name, text = await svc.computer.run(
            JOB_TIMEOUT, export_job, docs, found.names, datetime.date.today()
        )
        return InputFile(text.encode("utf-8"), filename=name)

    config = found.records[0].config
    classic, cubeless = config.rules.gnubg_ids, wants_sgf(config)
    message = await send_reusing(
        file_id,
        match_file,
        lambda media: context.bot.send_document(
            chat.id,
            media,
            caption=RX.export_caption(classic, len(found.records), cubeless),
            parse_mode="HTML",
            message_thread_id=where.thread_id,
        ),
        lambda: _jobs(context).remember(key, None),
    )
    _jobs(context).remember(key, message.document.file_id if message.document else None)
    return None


@dataclass(frozen=True, slots=True)
class Where:
    """Whose finished games (the chat's, a forum topic's or an inline message's ``key``) and
    the chat the file goes to: the same chat (and topic), except for an inline board, whose
    files go privately."""

    key: int
    send_to: Chat
    thread_id: int | None = None  # the forum topic of ``send_to`` the file goes to


async def _here(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Where:
    """A command's place: the chat it was written in, or its forum topic; in a group, the
    caller's own table (or the last one they played at)."""
    chat, place, user = update.effective_chat, places.of_update(update), update.effective_user
    assert chat is not None and place is not None
    if user is not None:
        place = await tables.for_history(services(context), place, user.id)
    return Where(place.key, chat, place.thread_id)


async def _where(
    context: ContextTypes.DEFAULT_TYPE, update: Update, place: places.Place
) -> Where | None:
    """Where a button's file goes; None when it should go privately and cannot yet."""
    chat = update.effective_chat
    if not place.is_inline and chat is not None:
        return Where(place.key, chat, place.thread_id)
    user = update.effective_user
    assert user is not None
    if not await can_write_privately(context.bot, user.id):
        return None
    return Where(place.key, Chat(user.id, ChatType.PRIVATE))


async def _chat_action(context: ContextTypes.DEFAULT_TYPE, where: Where, action: str) -> None:
    chat_id = where.send_to.id
    try:
        await context.bot.send_chat_action(chat_id, action, message_thread_id=where.thread_id)
    except TelegramError as exc:  # only a courtesy: the file follows anyway
        log.info("chat action failed in %s: %s", chat_id, exc)


async def _guarded(context: ContextTypes.DEFAULT_TYPE, chat_id: int, job: Any) -> str | None:
    """Run ``job`` unless the chat already has one running; the refusal text otherwise."""
    busy = _jobs(context).busy
    if chat_id in busy:
        job.close()  # never started
        return RX.ALREADY_WORKING
    busy.add(chat_id)
    try:
        result: str | None = await job
        return result
    except (TimeoutError, StorageError, EngineError) as exc:
        log.warning("replay or export failed in chat %s: %s", chat_id, exc)
        return RX.JOB_FAILED
    finally:
        busy.discard(chat_id)


async def on_replay_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rivedi: the replay of the match's last game; ``/rivedi N``: of its game N."""
    here = await _here(update, context)
    try:
        number = history.requested_number("rivedi", context.args)
    except history.BadNumberError as bad:
        await reply(update, str(bad))
        return
    job = _replay(context, here, None, number, exact=True)
    refusal = await _guarded(context, here.send_to.id, job)
    if refusal:
        await reply(update, refusal)


async def on_export_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    here = await _here(update, context)
    refusal = await _guarded(context, here.send_to.id, _export(context, here, None))
    if refusal:
        await reply(update, refusal)


async def on_records_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``v:r:<game id>:<game number>`` (replay) or ``v:e:<game id>`` (export)."""
    query, place = update.callback_query, places.of_update(update)
    assert query is not None and place is not None
    try:
        kind, game_id, number = cd.decode_records(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, RX.STALE_BUTTON)
        return
    place = await tables.for_game(services(context), place, game_id)  # the board's table
    where = await _where(context, update, place)
    if where is None:  # an inline board, and the bot may not write to the presser yet
        await alert(query, RX.WRITE_ME_FIRST)
        return
    chat = where.send_to
    jobs = _jobs(context)
    if chat.id in jobs.busy:
        await alert(query, RX.ALREADY_WORKING)
        return
    what = REPLAY if kind == cd.REPLAY else EXPORT
    if jobs.recent(chat.id, what, game_id, number if kind == cd.REPLAY else None):
        await alert(query, RX.REPLAY_JUST_SENT if kind == cd.REPLAY else RX.EXPORT_JUST_SENT)
        return
    await acknowledge(query, RX.REPLAY_WORKING if kind == cd.REPLAY else RX.EXPORT_WORKING)
    if kind == cd.REPLAY:
        refusal = await _guarded(context, chat.id, _replay(context, where, game_id, number))
    else:
        refusal = await _guarded(context, chat.id, _export(context, where, game_id))
    if refusal:
        await context.bot.send_message(
            chat.id, refusal, parse_mode="HTML", message_thread_id=where.thread_id
        )
