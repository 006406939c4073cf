"""Showing a chat's board: one background painter per chat, the newest state wins.

Handlers never wait for Telegram to redraw a board. They save the new state and hand it to
the painter (``show``), which returns at once. Per chat, one task draws: it first waits until
the chat's budget of messages allows an edit (a group may receive about 20 sends and edits
per minute), then takes the newest state handed in by then and edits the board message with
it. States handed in while it waited are never drawn one by one: the latest replaces them.

The painter records in storage which version the board shows (``mark_shown``), so a board
left behind its saved state (a crash between saving and drawing) is recognised and redrawn
on the next press, even by a new process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from telegram import Bot, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from bot import presenter
from bot.table import Table
from render import board_png
from storage import GameRepository, StorageError, StoredGame

log = logging.getLogger(__name__)

#: (game id, version): the order in which a chat's states were saved.
Key = tuple[int, int]

RETRY_PAUSE_SECONDS = 1.0


def _seconds(period: int | timedelta) -> float:
    return period.total_seconds() if isinstance(period, timedelta) else float(period)


def _key(stored: StoredGame) -> Key:
    return (stored.game_id, stored.version)


async def render_png(table: Table) -> bytes:
    """Draw in a worker thread: the event loop keeps serving other chats meanwhile."""
    view = presenter.board_view(table)
    return await asyncio.to_thread(board_png, view, orientation=presenter.orientation(table))


class BoardPainter:
    """Draws each chat's newest saved state on its board message, within the chat's budget.

    ``wait_ready`` is the rate limiter's hook that returns once a request to a chat would go
    out at once; without a limiter the painter draws immediately.
    """

    def __init__(
        self,
        bot: Bot,
        repo: GameRepository,
        wait_ready: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self.bot = bot
        self.repo = repo
        self._wait_ready = wait_ready
        self._wanted: dict[int, tuple[StoredGame, Table]] = {}
        self._drawn: dict[int, Key] = {}
        self._message: dict[int, tuple[int, int]] = {}  # chat -> (game id, board message id)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.edits = 0
        self.posts = 0

    # ------------------------------------------------------------------ public
    def show(self, stored: StoredGame, table: Table) -> None:
        """Ask for ``stored`` to be shown in its chat (soon, in the background)."""
        chat = stored.chat_id
        key = _key(stored)
        wanted = self._wanted.get(chat)
        if wanted is not None and _key(wanted[0]) >= key:
            return
        if self._shown(stored) >= key:
            return
        self._wanted[chat] = (stored, table)
        if chat not in self._tasks:
            self._tasks[chat] = asyncio.create_task(self._run(chat), name=f"painter:{chat}")

    def behind(self, stored: StoredGame) -> bool:
        """Does the board of this chat show less than the saved state (as far as we know)?"""
        return self._shown(stored) < _key(stored)

    async def post(self, stored: StoredGame, table: Table) -> int:
        """Post the board as a new message (a new game, /partita) and make it the chat's."""
        png = await render_png(table)
        msg = await self.bot.send_photo(
            stored.chat_id,
            photo=png,
            caption=presenter.caption(table),
            parse_mode=ParseMode.HTML,
            reply_markup=presenter.keyboard(table, stored.game_id, stored.version),
        )
        self.posts += 1
        await self._drawn_at(stored, msg.message_id)
        return msg.message_id

    async def drain(self) -> None:
        """Wait until every requested board has been drawn (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def retire_board(self, chat_id: int, message_id: int, caption: str) -> None:
        """Turn an old board into a pointer to the new one: a caption that no longer asks
        anyone to act, and no buttons, in one edit (best effort)."""
        with contextlib.suppress(BadRequest, Forbidden):
            await self.bot.edit_message_caption(
                chat_id, message_id, caption=caption, parse_mode=ParseMode.HTML, reply_markup=None
            )

    async def retire_keyboard(self, chat_id: int, message_id: int) -> None:
        """Remove the buttons from an old message (best effort)."""
        with contextlib.suppress(BadRequest, Forbidden):
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)

    # ------------------------------------------------------------------ the chat's task
    def _shown(self, stored: StoredGame) -> Key:
        drawn = self._drawn.get(stored.chat_id)
        if drawn is not None and drawn[0] == stored.game_id:
            return drawn
        if stored.shown_version is not None:
            return (stored.game_id, stored.shown_version)
        return drawn or (0, 0)

    async def _run(self, chat: int) -> None:
        try:
            while chat in self._wanted:
                if self._wait_ready is not None:
                    await self._wait_ready(chat)
                stored, table = self._wanted.pop(chat)
                try:
                    await self._draw(stored, table)
                except RetryAfter as exc:
                    # Still throttled after the limiter's retries: try again later unless a
                    # newer state arrives meanwhile.
                    self._wanted.setdefault(chat, (stored, table))
                    await asyncio.sleep(_seconds(exc.retry_after))
                except (TelegramError, StorageError):
                    log.exception("cannot show the board of chat %s", chat)
                    await asyncio.sleep(RETRY_PAUSE_SECONDS)
                    self._wanted.setdefault(chat, (stored, table))
                except Exception:
                    log.exception("unexpected error while drawing the board of chat %s", chat)
        finally:
            self._tasks.pop(chat, None)

    def _message_id(self, stored: StoredGame) -> int | None:
        known = self._message.get(stored.chat_id)
        if known is not None and known[0] == stored.game_id:
            return known[1]
        return stored.board_message_id

    async def _draw(self, stored: StoredGame, table: Table) -> None:
        if self._shown(stored) >= _key(stored):
            return
        message_id = self._message_id(stored)
        if message_id is None:
            await self.post(stored, table)
            return
        png = await render_png(table)
        media = InputMediaPhoto(png, caption=presenter.caption(table), parse_mode=ParseMode.HTML)
        try:
            await self.bot.edit_message_media(
                media,
                chat_id=stored.chat_id,
                message_id=message_id,
                reply_markup=presenter.keyboard(table, stored.game_id, stored.version),
            )
            self.edits += 1
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                pass  # already showing exactly this: nothing to do
            elif "not found" in text or "can't be edited" in text:
                log.info("board message of chat %s is gone; posting a new one", stored.chat_id)
                await self.post(stored, table)
                return
            else:
                raise
        await self._drawn_at(stored, message_id)

    async def _drawn_at(self, stored: StoredGame, message_id: int) -> None:
        chat = stored.chat_id
        self._drawn[chat] = max(self._drawn.get(chat, (0, 0)), _key(stored))
        self._message[chat] = (stored.game_id, message_id)
        await self.repo.mark_shown(chat, stored.game_id, stored.version, message_id=message_id)
