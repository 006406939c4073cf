"""/rivedi and /esporta, and the Rivedi / Esporta buttons of a finished game's board.

Both work on the chat's latest match with a finished game: its games' records are those
storage keeps after each game (``TAVOLA_RECORD_DAYS``) and the one the match's table holds,
and the players' names come from that table. Building a replay
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

from telegram import InputFile, Update
from telegram.constants import ChatAction
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import callback_data as cd
from bot import pipeline
from bot.handlers.common import acknowledge, alert, reply
from bot.presenter import orientation
from bot.replay import export_job, replay_gif_job
from bot.services import Services, services
from bot.table import Table
from bot.texts import records as R
from engine import EngineError, GameRecord
from storage import StorageError

log = logging.getLogger(__name__)

#: Seconds a worker may take for one replay or file; far beyond the ~2 s they need.
JOB_TIMEOUT = 60.0
_busy: set[int] = set()  # chats with a replay or export being built in this process


#: How many of a chat's latest records are looked through: a match's games, and more.
MAX_RECORDS = 64


@dataclass(frozen=True, slots=True)
class Finished:
    """The finished games of one match (or single game), in order, with their players."""

    game_id: int
    names: tuple[str, str]
    table: Table | None  # the match's table, while it is kept (for who sits where)
    records: tuple[GameRecord, ...]


def _finished_record(table: Table) -> GameRecord | None:
    record = table.record
    return record if record is not None and record.finished else None


async def _match_table(svc: Services, chat_id: int, game_id: int) -> Table | None:
    """The table of game ``game_id``: the chat's active one, or the archived one."""
    loaded = await pipeline.load(svc, chat_id)
    if loaded is not None and loaded.stored.game_id == game_id:
        return loaded.table
    finished = await svc.repo.load_finished_game(chat_id, game_id)
    if finished is None:
        return None
    try:
        return Table.from_doc(finished.doc)
    except EngineError:
        log.warning("finished game %s of chat %s cannot be read", game_id, chat_id)
        return None


async def latest_finished(svc: Services, chat_id: int, game_id: int | None) -> Finished | None:
    """The finished games of the chat's match ``game_id`` (None: the latest one to have a
    finished game), from the kept records and the match's own table."""
    loaded = await pipeline.load(svc, chat_id)
    archived = await svc.repo.last_records(chat_id, MAX_RECORDS)
    if game_id is None:
        if loaded is not None and _finished_record(loaded.table) is not None:
            game_id = loaded.stored.game_id
        elif archived:
            game_id = archived[0].game_id
        else:
            ids = await svc.repo.finished_game_ids(chat_id, 1)
            game_id = ids[0] if ids else None
    if game_id is None:
        return None
    table = await _match_table(svc, chat_id, game_id)
    by_number: dict[int, GameRecord] = {}
    own = None if table is None else _finished_record(table)
    if own is not None:
        by_number[own.game_number] = own
    for row in archived:
        if row.game_id == game_id and row.game_number not in by_number:
            try:
                by_number[row.game_number] = GameRecord.from_doc(row.doc)
            except EngineError:
                log.warning(
                    "record %s:%s of chat %s cannot be read", game_id, row.game_number, chat_id
                )
    if not by_number:
        return None
    records = tuple(by_number[n] for n in sorted(by_number))
    names = _names(table) if table is not None else (R.FIRST_PLAYER, R.SECOND_PLAYER)
    return Finished(game_id, names, table, records)


def _names(table: Table) -> tuple[str, str]:
    return (table.players[0].name, table.players[1].name)


async def _replay(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: int | None, number: int | None
) -> str | None:
    """Build and send the replay; the refusal's text when there is nothing to send."""
    chat = update.effective_chat
    assert chat is not None
    svc = services(context)
    found = await latest_finished(svc, chat.id, game_id)
    if found is None:
        return R.NO_FINISHED_GAME
    record = next((r for r in found.records if r.game_number == number), found.records[-1])
    await _chat_action(context, chat.id, ChatAction.UPLOAD_VIDEO)
    seat = "white" if found.table is None else orientation(found.table)
    names = found.names
    data = await svc.computer.run_job(
        replay_gif_job, record.to_doc(), names, seat, timeout=JOB_TIMEOUT
    )
    await context.bot.send_animation(
        chat.id,
        InputFile(data, filename=f"tavola-partita-{record.game_number}.gif"),
        caption=R.replay_caption(names[0], names[1], record.game_number),
        parse_mode="HTML",
    )
    return None


async def _export(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: int | None
) -> str | None:
    chat = update.effective_chat
    assert chat is not None
    svc = services(context)
    found = await latest_finished(svc, chat.id, game_id)
    if found is None:
        return R.NO_FINISHED_GAME
    await _chat_action(context, chat.id, ChatAction.UPLOAD_DOCUMENT)
    docs: list[dict[str, Any]] = [r.to_doc() for r in found.records]
    name, text = await svc.computer.run_job(
        export_job, docs, found.names, datetime.date.today(), timeout=JOB_TIMEOUT
    )
    classic = found.records[0].config.rules.gnubg_ids
    await context.bot.send_document(
        chat.id,
        InputFile(text.encode("utf-8"), filename=name),
        caption=R.export_caption(classic, len(found.records)),
        parse_mode="HTML",
    )
    return None


async def _chat_action(context: ContextTypes.DEFAULT_TYPE, chat_id: int, action: str) -> None:
    try:
        await context.bot.send_chat_action(chat_id, action)
    except TelegramError as exc:  # only a courtesy: the file follows anyway
        log.info("chat action failed in %s: %s", chat_id, exc)


async def _guarded(chat_id: int, job: Any) -> str | None:
    """Run ``job`` unless the chat already has one running; the refusal text otherwise."""
    if chat_id in _busy:
        return R.ALREADY_WORKING
    _busy.add(chat_id)
    try:
        result: str | None = await job
        return result
    except (TimeoutError, StorageError, EngineError) as exc:
        log.warning("replay or export failed in chat %s: %s", chat_id, exc)
        return R.JOB_FAILED
    finally:
        _busy.discard(chat_id)


async def on_replay_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    assert chat is not None
    refusal = await _guarded(chat.id, _replay(update, context, None, None))
    if refusal:
        await reply(update, refusal)


async def on_export_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    assert chat is not None
    refusal = await _guarded(chat.id, _export(update, context, None))
    if refusal:
        await reply(update, refusal)


async def on_records_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``v:r:<game id>:<game number>`` (replay) or ``v:e:<game id>`` (export)."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    try:
        kind, game_id, number = cd.decode_records(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, R.STALE_BUTTON)
        return
    if chat.id in _busy:
        await alert(query, R.ALREADY_WORKING)
        return
    await acknowledge(query, R.REPLAY_WORKING if kind == cd.REPLAY else R.EXPORT_WORKING)
    if kind == cd.REPLAY:
        refusal = await _guarded(chat.id, _replay(update, context, game_id, number))
    else:
        refusal = await _guarded(chat.id, _export(update, context, game_id))
    if refusal:
        await context.bot.send_message(chat.id, refusal, parse_mode="HTML")
