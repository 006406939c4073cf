"""Places the bot loses and finds again: a group that became a supergroup (a new chat id), a
group the bot was removed from, a user who blocked it.

Telegram says so in two ways: with an update (the service messages carrying
``migrate_to_chat_id`` / ``migrate_from_chat_id``, a ``my_chat_member`` change) and in the
answer to any request to that place (400 with ``parameters.migrate_to_chat_id``, which PTB
raises as ``ChatMigrated``; 403, ``Forbidden``). Either may come first, or alone, and several
at once, from the painter, a timer or a handler. Every path ends in the same idempotent step:

- **moved**: storage moves the chat's records to the new id in one script; the turn timers
  follow; the board is posted in the new chat and the game goes on where it stood.
- **unreachable**: a stored marker (every worker, and a restart, see it) and the chat's turn
  clocks stopped in the same atomic step: its games are adjourned, kept as they are. The
  timers and the painter drop what they had for it. Nothing is retried.
- **back**: the bot added to the group again, or anything from the chat (a person who blocked
  the bot writes again): the marker goes. A private game resumes at once (its board posted
  again, a fresh turn clock); a group's with ``/partita``.

The requests are watched where they all pass, in the HTTP layer PTB lets an application
replace (:class:`WatchingRequest`), so no caller has to remember to report a refusal.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes
from telegram.request import BaseRequest, RequestData

from bot import pipeline, tables, timeouts
from bot.adapters import metrics, places
from bot.adapters.aiohttp_request import AiohttpRequest
from bot.adapters.ptb_types import BotApp
from bot.game.table import Table
from bot.services import bot_data, of_app, services
from bot.texts import messages as T
from storage import CorruptGameError, StorageError, StoredGame

log = logging.getLogger(__name__)

#: Statuses of the bot in a chat that leave it outside (no request there succeeds).
OUTSIDE = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})
#: Why a place is unreachable, as stored.
BLOCKED = "blocked"
REFUSED = "refused"  # a 403 with no update telling why
_BOARD_COMMAND = "/partita"


# --------------------------------------------------------------------------- refusals
@dataclass(frozen=True, slots=True)
class Refusal:
    """A request Telegram refused for good: the chat moved (``new_chat_id``) or the bot may
    no longer write there (``new_chat_id`` None)."""

    chat_id: int
    new_chat_id: int | None
    description: str


Observer = Callable[[Refusal], Awaitable[None]]
#: The chats whose refusal is being handled in this task: the handling makes requests of its
#: own (posting the board in the new chat), and a refusal among them must not recurse.
_handling: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar(
    "handling_refusals", default=frozenset()
)


def refusal_of(code: int, payload: bytes, request_data: RequestData | None) -> Refusal | None:
    """A refusal for good in a Bot API answer, or None (success, or any other error)."""
    if code not in (400, 403) or request_data is None:
        return None
    chat = request_data.parameters.get("chat_id")
    if isinstance(chat, str) and chat.lstrip("-").isdigit():
        chat = int(chat)
    if not isinstance(chat, int):
        return None  # an inline message, a @channelname: no chat of ours
    try:
        answer = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(answer, dict):
        return None
    description = str(answer.get("description", ""))
    parameters = answer.get("parameters") or {}
    new_chat = parameters.get("migrate_to_chat_id") if isinstance(parameters, dict) else None
    if isinstance(new_chat, int) and new_chat != chat:
        return Refusal(chat, new_chat, description)
    if code == 403:
        return Refusal(chat, None, description)
    return None


class WatchingRequest(AiohttpRequest):
    """The bot's HTTP client (``bot.adapters.aiohttp_request``), telling ``observer`` of
    every refusal for good before the caller gets its exception (so the place is already
    moved or adjourned when the caller, a painter or a timer, decides what to do next)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observer: Observer | None = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        try:
            code, payload = await super().do_request(
                url,
                method,
                request_data,
                read_timeout=read_timeout,
                write_timeout=write_timeout,
                connect_timeout=connect_timeout,
                pool_timeout=pool_timeout,
            )
        except Exception:
            metrics.bot_api_failed(url)
            raise
        metrics.bot_api_answered(url, code, request_data.parameters if request_data else None)
        refusal = refusal_of(code, payload, request_data)
        if refusal is not None and self.observer is not None:
            busy = _handling.get()
            if refusal.chat_id not in busy:
                token = _handling.set(busy | {refusal.chat_id})
                try:
                    await self.observer(refusal)
                except Exception:  # the caller still gets Telegram's answer
                    log.exception("cannot handle the refusal of chat %s", refusal.chat_id)
                finally:
                    _handling.reset(token)
        return code, payload


def install(app: BotApp) -> None:
    """Watch the bot's requests for refusals (when its HTTP client is ours)."""
    request = app.bot.request
    if isinstance(request, WatchingRequest):

        async def observe(refusal: Refusal) -> None:
            if refusal.new_chat_id is not None:
                await moved(app, refusal.chat_id, refusal.new_chat_id)
            else:
                await unreachable(app, refusal.chat_id, REFUSED, refusal.description)

        request.observer = observe


async def _places(app: BotApp, chat_id: int) -> list[places.Place]:
    """The chat, the forum topics of it that hosted a table, and their further tables."""
    svc = of_app(app)
    threads = (await svc.repo.topics_of(chat_id)).values()
    return await tables.all_places(svc, places.of_chat(chat_id, threads))


def _stop_place(app: BotApp, key: int) -> None:
    """No board is drawn for this place any more (its timers find no deadline in storage:
    the callers stop its clock in the same step that records why)."""
    of_app(app).painter.drop(key)


# --------------------------------------------------------------------------- moved
async def moved(app: BotApp, old_chat_id: int, new_chat_id: int) -> None:
    """The group ``old_chat_id`` is now ``new_chat_id``: move its records, go on there."""
    svc = of_app(app)
    # Two triggers of one migration (both service messages, an error) run one after the
    # other, and the second finds nothing left to move.
    async with bot_data(app).migration_locks.setdefault(old_chat_id, asyncio.Lock()):
        migration = await svc.repo.migrate_chat(old_chat_id, new_chat_id)
        for place in await _places(app, old_chat_id):
            _stop_place(app, place.key)
        if migration.nothing:
            return
        log.info(
            "chat %s became %s: game moved %s, %d other records moved",
            old_chat_id,
            new_chat_id,
            migration.game_moved,
            migration.records_moved,
        )
        if not migration.game_moved:
            return
        try:
            loaded = await pipeline.load(svc, new_chat_id)
        except CorruptGameError:
            log.warning("the game moved to chat %s cannot be read", new_chat_id)
            return
        if loaded is None:
            return  # finished meanwhile
        due = await svc.repo.get_deadline(new_chat_id)
        if due is not None:
            await timeouts.schedule(svc.repo, loaded.stored, loaded.table, due)
        try:
            await svc.painter.post(loaded.stored, loaded.table)
        except TelegramError as exc:  # the new chat refused too: reported like any refusal
            log.info("cannot post the board in chat %s: %s", new_chat_id, exc)


async def on_migration_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The service messages of an upgrade: ``migrate_to_chat_id`` in the old group,
    ``migrate_from_chat_id`` in the new supergroup. Either one moves the chat."""
    msg, chat = update.effective_message, update.effective_chat
    if msg is None or chat is None:
        return
    if msg.migrate_to_chat_id:
        await moved(context.application, chat.id, msg.migrate_to_chat_id)
    elif msg.migrate_from_chat_id:
        await moved(context.application, msg.migrate_from_chat_id, chat.id)


# --------------------------------------------------------------------------- unreachable
async def unreachable(app: BotApp, chat_id: int, why: str, detail: str = "") -> None:
    """The bot may no longer write in ``chat_id``: adjourn its games (idempotent)."""
    keys = [place.key for place in await _places(app, chat_id)]
    for key in keys:
        _stop_place(app, key)
    if await of_app(app).repo.mark_unreachable(chat_id, why, keys):
        note = f" ({detail})" if detail else ""
        log.info("chat %s is unreachable, %s%s: its games wait", chat_id, why, note)


async def on_member_change(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """The bot's own status changed in a chat. Removed, left or blocked: the chat's games
    are adjourned. Added back to a group: reachable again; returns True when a game waits
    there for ``/partita``. (A private chat unblocked resumes with the person's next
    message, see :func:`came_back`.)"""
    change, chat = update.my_chat_member, update.effective_chat
    if change is None or chat is None:
        return False
    app = context.application
    private = chat.type == ChatType.PRIVATE
    if change.new_chat_member.status in OUTSIDE:
        why = BLOCKED if private else str(change.new_chat_member.status)
        await unreachable(app, chat.id, why)
        return False
    if private or change.old_chat_member.status not in OUTSIDE:
        return False
    svc = services(context)
    was = await svc.repo.mark_reachable(chat.id)
    if was is not None:
        log.info("chat %s is reachable again (it was %s)", chat.id, was)
    for place in await _places(app, chat.id):
        try:
            if await svc.repo.load_game(place.key) is not None:
                return True
        except CorruptGameError:
            continue
    return False


# --------------------------------------------------------------------------- back
async def restart_clock(app: BotApp, stored: StoredGame, table: Table) -> None:
    """Give an adjourned game a fresh turn clock (one still running is left alone)."""
    if not (table.turn_seconds and pipeline.needs_human(table)):
        return
    due = time.time() + table.turn_seconds
    repo = of_app(app).repo
    if await repo.restart_deadline(stored.chat_id, due):
        await timeouts.schedule(repo, stored, table, due)


async def resume(app: BotApp, chat_id: int, *, post: bool) -> None:
    """Resume the games of a chat that is reachable again: a fresh clock, and (``post``) the
    board at the bottom of the chat, the old one pointing to it."""
    svc = of_app(app)
    for place in await _places(app, chat_id):
        try:
            loaded = await pipeline.load(svc, place.key)
        except CorruptGameError:
            continue
        if loaded is None:
            continue
        await restart_clock(app, loaded.stored, loaded.table)
        if post:
            old = loaded.stored.board_message_id
            await svc.painter.post(loaded.stored, loaded.table)
            if old is not None:
                await svc.painter.retire_board(place.chat_id, old, T.BOARD_MOVED)


def _asks_for_board(update: Update) -> bool:
    """A press on the board, or /partita (which posts the board itself)."""
    if update.callback_query is not None:
        return True
    text = update.effective_message.text if update.effective_message is not None else None
    if not text or not text.startswith("/"):
        return False
    return text.split(maxsplit=1)[0].split("@", 1)[0].lower() == _BOARD_COMMAND


def sign_of_life(update: Update) -> int | None:
    """The chat that ``update`` shows reachable: anything from a chat, but a change of the
    bot's membership (:func:`on_member_change` decides: a removal is no sign of life) and
    an inline message's press (no chat of ours). None: no such chat."""
    if update.my_chat_member is not None or update.chat_member is not None:
        return None
    chat = update.effective_chat
    place = places.of_update(update)
    if chat is None or place is None or place.is_inline:
        return None
    return chat.id


async def came_back(update: Update, context: ContextTypes.DEFAULT_TYPE, why: str) -> None:
    """The chat of ``update`` was marked unreachable (``why``) and the update shows it is
    not (the person who blocked the bot writes to it; the my_chat_member update of a return
    was missed): the marker is gone already. A private game resumes at once; a group's with
    /partita."""
    chat = update.effective_chat
    assert chat is not None
    log.info("chat %s is reachable again (it was %s)", chat.id, why)
    if chat.type != ChatType.PRIVATE:
        return
    try:
        await resume(context.application, chat.id, post=not _asks_for_board(update))
    except StorageError as exc:
        log.warning("cannot resume the games of chat %s: %s", chat.id, exc)
