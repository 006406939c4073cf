"""Showing a chat's board: one background painter per chat, the newest state wins.

Handlers never wait for Telegram to redraw a board. They save the new state and hand it to
the painter (``show``), which returns at once. Per chat, one task draws: it first waits until
the chat's budget of messages allows an edit (a group may receive about 20 sends and edits
per minute), then takes the newest state handed in by then and edits the board message with
it. States handed in while it waited are never drawn one by one: the latest replaces them.

A table that lives in an inline message (see ``bot.adapters.places``) is drawn the same way,
with one difference Telegram imposes: an inline message cannot receive an upload, only a
file Telegram already has. Each new picture is therefore first sent to the operator's media
chat (once: the file id is kept) and the inline message is then edited with its file id.

The painter records in storage which version the board shows (``mark_shown``), so a board
left behind its saved state (a crash between saving and drawing) is recognised and redrawn
on the next press, even by a new process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.adapters import places, raw_calls
from bot.adapters.file_ids import send_reusing
from bot.adapters.places import Place
from bot.game.table import Table
from bot.views import inline_board, presenter
from render import BoardView, board_png
from render import Side as RenderSide
from storage import GameRepository, StorageError, StoredGame

log = logging.getLogger(__name__)

#: (game id, version): the order in which a chat's states were saved.
Key = tuple[int, int]

RETRY_PAUSE_SECONDS = 1.0
_V = TypeVar("_V")
_R = TypeVar("_R")


def _seconds(period: int | timedelta) -> float:
    return period.total_seconds() if isinstance(period, timedelta) else float(period)


def _key(stored: StoredGame) -> Key:
    return (stored.game_id, stored.version)


#: A picture: what is drawn and which side sits at the bottom.
PictureKey = tuple[BoardView, RenderSide]
#: How a picture's PNG is drawn: in a thread by default, in a drawing process in the bot
#: (``bot.drawing``).
Draw = Callable[[BoardView, RenderSide], Awaitable[bytes]]

PNG_CACHE_SIZE = 256  # about 100 KB each: 25 MB at most
FILE_ID_CACHE_SIZE = 4096  # Telegram file ids are short strings


def picture_key(table: Table) -> PictureKey:
    return (presenter.board_view(table), presenter.orientation(table))


class _Lru(OrderedDict[PictureKey, _V]):
    """A small least-recently-used map."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_fresh(self, key: PictureKey) -> _V | None:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: PictureKey, value: _V) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Pictures:
    """Board pictures by what they show: drawn once, uploaded once.

    The same position comes back often (a take-back, a board posted again by /partita, a
    rematch's opening): its PNG is kept, and once Telegram has it, its ``file_id`` is sent
    instead of the bytes, so showing it again costs no upload.
    """

    def __init__(self, draw: Draw | None = None) -> None:
        self._draw = draw or _draw_in_thread
        self._png: _Lru[bytes] = _Lru(PNG_CACHE_SIZE)
        self._file_id: _Lru[str] = _Lru(FILE_ID_CACHE_SIZE)
        self.reused = 0  # pictures shown again without an upload

    async def send(self, key: PictureKey, send: Callable[[str | bytes], Awaitable[_R]]) -> _R:
        """Send the picture (the board, a hint, an analysis) with its file id when Telegram
        has it, else with its bytes, then remember the id it was given. A refused id is
        forgotten and the bytes sent instead (``bot.adapters.file_ids``)."""
        file_id = self._file_id.get_fresh(key)
        if file_id is not None:
            self.reused += 1
        result = await send_reusing(file_id, lambda: self.png(key), send, lambda: self.forget(key))
        self.uploaded(key, result)
        return result

    async def png(self, key: PictureKey) -> bytes:
        """The picture's PNG, drawn (off the event loop) the first time."""
        png = self._png.get_fresh(key)
        if png is None:
            png = await self._draw(*key)
            self._png.put(key, png)
        return png

    def uploaded(self, key: PictureKey, message: object) -> None:
        """Remember the file id Telegram gave the picture of a sent or edited message."""
        if isinstance(message, Message) and message.photo:
            self._file_id.put(key, message.photo[-1].file_id)
        elif isinstance(message, raw_calls.Sent) and message.file_id is not None:
            self._file_id.put(key, message.file_id)

    def forget(self, key: PictureKey) -> None:
        """Telegram refused the file id (it happens after long idle times): upload again."""
        self._file_id.pop(key, None)


async def _draw_in_thread(view: BoardView, orientation: RenderSide) -> bytes:
    return await asyncio.to_thread(board_png, view, orientation=orientation)


class InlineUnavailableError(RuntimeError):
    """An inline board cannot be drawn: no media chat is configured to upload pictures to."""


class BoardPainter:
    """Draws each chat's newest saved state on its board message, within the chat's budget.

    ``wait_ready`` is the rate limiter's hook that returns once a request to a chat would go
    out at once; without a limiter the painter draws immediately. ``media_chat`` is where
    pictures for inline messages are uploaded (None: inline tables cannot be drawn).
    ``draw`` draws a picture's PNG (default: in a thread).
    """

    def __init__(
        self,
        bot: Bot,
        repo: GameRepository,
        wait_ready: Callable[[int | str], Awaitable[None]] | None = None,
        media_chat: int | str | None = None,
        ready_in: Callable[[int | str], float] | None = None,
        draw: Draw | None = None,
    ) -> None:
        self.bot = bot
        self.repo = repo
        #: The button that opens the table in the Mini App (``bot.miniapp.links``), or None.
        self.open_button: Callable[[int, Table], InlineKeyboardButton | None] | None = None
        self._wait_ready = wait_ready
        self._ready_in = ready_in
        self.media_chat = media_chat
        self._places: dict[int, Place] = {}  # chat key -> where its board is (inline or not)
        # inline chat key -> (game id, version, buttons) last drawn: a press on an inline
        # message does not carry its keyboard, and quiet steps need to know it
        self._wanted: dict[int, tuple[StoredGame, Table]] = {}
        self._drawn: dict[int, Key] = {}
        self._message: dict[int, tuple[int, int]] = {}  # chat -> (game id, board message id)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._forced: set[int] = set()  # chats whose next board is drawn whatever was shown
        self.pictures = Pictures(draw)
        # chat -> prompt message id -> (text, buttons): the newest wording of each prompt
        self._prompts: dict[int, dict[int, tuple[str, InlineKeyboardMarkup | None]]] = {}

    # ------------------------------------------------------------------ public
    def show(self, stored: StoredGame, table: Table, *, force: bool = False) -> None:
        """Ask for ``stored`` to be shown in its chat (soon, in the background).

        ``force``: draw it even if it seems shown already. A press proved the board on
        screen is not this version (a Redis rollback left the saved game older than the
        board, a board whose redraw was never recorded): what this process remembers having
        drawn, and the shown version in storage, are both wrong then.
        """
        chat = stored.chat_id
        key = _key(stored)
        if force:
            self._forced.add(chat)
            self._drawn.pop(chat, None)
            self._wanted[chat] = (stored, table)
            self._places[chat] = places.of_game(
                chat, table.inline_message, table.topic, table.group
            )
            self._start(chat)
            return
        wanted = self._wanted.get(chat)
        if wanted is not None and _key(wanted[0]) >= key:
            return
        if self._shown(stored) >= key:
            return
        self._wanted[chat] = (stored, table)
        self._places[chat] = places.of_game(chat, table.inline_message, table.topic, table.group)
        self._start(chat)

    def redraw_wait(self, chat_id: int, place: Place | None = None) -> float:
        """Seconds before a board of this place could be drawn (0.0: at once, or unknown):
        the group's budget, as this process last heard it (a lower bound)."""
        if self._ready_in is None:
            return 0.0
        if place is None:
            place = self._places.get(chat_id)
        return self._ready_in(chat_id if place is None else place.limit_key)

    def adopt(self, chat_id: int, game_id: int, message_id: int) -> None:
        """Take ``message_id`` as the game's board: a board posted whose id was never
        recorded (a crash after sending it, a reply that timed out), recognised by a press
        on it."""
        self._message[chat_id] = (game_id, message_id)

    def edit_prompt(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        place: Place | None = None,
    ) -> None:
        """Rewrite a short message of the game (the resign prompt) soon, in the background,
        in order with the chat's other edits; a newer wording of it replaces an older one.

        ``place`` names the chat of a table kept under a derived key (a forum topic).
        An inline table has no prompt message: its prompt is drawn on the board."""
        if places.is_inline_key(chat_id):
            return
        if place is not None:
            self._places[chat_id] = place
        self._prompts.setdefault(chat_id, {})[message_id] = (text, markup)
        self._start(chat_id)

    def drop(self, chat: int) -> None:
        """Forget what was waiting to be drawn for a place the bot can no longer reach (or
        that moved): nothing of it is drawn or retried. A drawing under way ends with its
        refusal."""
        self._wanted.pop(chat, None)
        self._prompts.pop(chat, None)

    def backlog(self) -> int:
        """Chats whose board is waiting to be drawn or being drawn (bot.adapters.metrics)."""
        return len(self._tasks)

    def _start(self, chat: int) -> None:
        if chat not in self._tasks:
            self._tasks[chat] = asyncio.create_task(self._run(chat), name=f"painter:{chat}")

    async def post(self, stored: StoredGame, table: Table) -> int:
        """Post the board as a new message (a new game, /partita) and make it the chat's.

        An inline table's board is its inline message: it is drawn there instead."""
        place = places.of_game(stored.chat_id, table.inline_message, table.topic, table.group)
        if place.is_inline:
            await self._draw_inline(stored, table, place)
            return places.INLINE_BOARD_ID
        key = picture_key(table)
        msg = await self.pictures.send(
            key,
            lambda photo: raw_calls.send_photo(
                self.bot,
                place.chat_id,
                message_thread_id=place.thread_id,
                photo=photo,
                caption=presenter.caption(table),
                parse_mode=ParseMode.HTML,
                reply_markup=self._markup(
                    stored, table, presenter.keyboard(table, stored.game_id, stored.version)
                ),
            ),
        )
        await self._drawn_at(stored, msg.message_id)
        return msg.message_id

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every requested board has been drawn (tests, shutdown).

        With ``timeout`` (shutdown), boards still waiting for their chat's budget after that
        many seconds are dropped: storage knows they are behind (``shown_version``), so the
        next press after a restart redraws them.
        """
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._tasks:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                for task in self._tasks.values():
                    task.cancel()
                self._wanted.clear()
                log.info("%d boards left to redraw after a restart", len(self._tasks))
                await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
                return
            tasks = list(self._tasks.values())
            await asyncio.wait(tasks, timeout=left)

    async def retire_board(self, chat_id: int, message_id: int, caption: str) -> None:
        """Turn an old board into a pointer to the new one: a caption that no longer asks
        anyone to act, and no buttons, in one edit (best effort)."""
        with contextlib.suppress(BadRequest, Forbidden):
            await raw_calls.edit_message_caption(
                self.bot, chat_id, message_id, caption=caption, parse_mode=ParseMode.HTML
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
            while chat in self._wanted or self._prompts.get(chat):
                if self._wait_ready is not None:
                    place = self._places.get(chat)
                    await self._wait_ready(chat if place is None else place.limit_key)
                prompts = self._prompts.get(chat)
                if prompts:
                    message_id = next(iter(prompts))
                    text, markup = prompts.pop(message_id)
                    await self._edit_prompt(chat, message_id, text, markup)
                    continue
                self._prompts.pop(chat, None)
                stored, table = self._wanted.pop(chat)
                try:
                    await self._draw_here(stored, table)
                except RetryAfter as exc:
                    # Still throttled after the limiter's retries: try again later unless a
                    # newer state arrives meanwhile.
                    self._wanted.setdefault(chat, (stored, table))
                    await asyncio.sleep(_seconds(exc.retry_after))
                except (Forbidden, ChatMigrated) as exc:
                    # The place is gone (kicked, blocked) or moved: bot.reach has adjourned
                    # or moved its game. Never retried.
                    log.info("board of chat %s not drawn: %s", chat, exc)
                    self.drop(chat)
                except (TelegramError, StorageError):
                    log.exception("cannot show the board of chat %s", chat)
                    await asyncio.sleep(RETRY_PAUSE_SECONDS)
                    self._wanted.setdefault(chat, (stored, table))
                except Exception:
                    log.exception("unexpected error while drawing the board of chat %s", chat)
        finally:
            self._tasks.pop(chat, None)
            if chat not in self._wanted:
                self._places.pop(chat, None)

    async def _edit_prompt(
        self, chat: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        """Best effort: a prompt deleted by an admin or edited meanwhile is left alone."""
        try:
            place = self._places.get(chat)
            await self.bot.edit_message_text(
                text,
                chat_id=chat if place is None else place.chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
        except RetryAfter as exc:
            self._prompts.setdefault(chat, {}).setdefault(message_id, (text, markup))
            await asyncio.sleep(_seconds(exc.retry_after))
        except TelegramError:
            log.warning("cannot update the resign prompt %s in chat %s", message_id, chat)

    def _message_id(self, stored: StoredGame) -> int | None:
        known = self._message.get(stored.chat_id)
        if known is not None and known[0] == stored.game_id:
            return known[1]
        return stored.board_message_id

    async def _draw_here(self, stored: StoredGame, table: Table) -> None:
        """Draw; a forum topic that Telegram closed or deleted adjourns its game instead:
        nothing is retried, the game stays stored, and /partita there later resumes it."""
        try:
            await self._draw(stored, table)
        except BadRequest as exc:
            if not places.topic_gone(exc):
                raise
            await self.adjourn(stored.chat_id, str(exc))

    async def adjourn(self, key: int, reason: str) -> None:
        """Stop drawing a place Telegram closed: its pending drawings are dropped and its
        turn deadline cleared (its timers then do nothing), so no request is repeated and
        no game is lost on time while nobody can see it. The game itself stays stored."""
        self._wanted.pop(key, None)
        self._prompts.pop(key, None)
        log.info("place %s is closed (%s): its game is adjourned", key, reason)
        try:
            await self.repo.cancel_timers(key)
        except StorageError:
            log.warning("cannot stop the timers of adjourned place %s", key)

    async def _draw(self, stored: StoredGame, table: Table) -> None:
        if stored.chat_id in self._forced:
            self._forced.discard(stored.chat_id)
        elif self._shown(stored) >= _key(stored):
            return
        place = places.of_game(stored.chat_id, table.inline_message, table.topic, table.group)
        if place.is_inline:
            await self._draw_inline(stored, table, place)
            return
        message_id = self._message_id(stored)
        if message_id is None:
            await self.post(stored, table)
            return
        caption = presenter.caption(table)
        markup = self._markup(
            stored, table, presenter.keyboard(table, stored.game_id, stored.version)
        )
        try:
            await self.pictures.send(
                picture_key(table),
                lambda photo: raw_calls.edit_message_media(
                    self.bot,
                    InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML),
                    chat_id=place.chat_id,
                    message_id=message_id,
                    reply_markup=markup,
                ),
            )
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

    def _markup(
        self, stored: StoredGame, table: Table, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        """The board's keyboard, with the Mini App's button below it when the app is on."""
        extra = None if self.open_button is None else self.open_button(stored.chat_id, table)
        if extra is None:
            return markup
        rows = [] if markup is None else [list(row) for row in markup.inline_keyboard]
        return InlineKeyboardMarkup([*rows, [extra]])

    async def _draw_inline(self, stored: StoredGame, table: Table, place: Place) -> None:
        """Edit the inline message with a picture Telegram already has (see the module)."""
        key = picture_key(table)
        caption = inline_board.caption(table, stored.game_id, stored.version)
        markup = self._markup(
            stored, table, inline_board.keyboard(table, stored.game_id, stored.version)
        )

        async def edit(media: str | bytes) -> object:
            # An inline message takes no upload: a new picture goes to the media chat first.
            file_id = media if isinstance(media, str) else await self._upload(key, media)
            return await raw_calls.edit_message_media(
                self.bot,
                InputMediaPhoto(file_id, caption=caption, parse_mode=ParseMode.HTML),
                reply_markup=markup,
                **place.message(places.INLINE_BOARD_ID),
            )

        try:
            await self.pictures.send(key, edit)
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                pass  # already showing exactly this
            elif "not found" in text or "invalid" in text or "can't be edited" in text:
                # Deleted by someone in its chat: there is no other place to show it.
                log.info("inline board %s is gone; not redrawn", place.key)
                return
            else:
                raise
        await self._drawn_at(stored, places.INLINE_BOARD_ID)

    async def _upload(self, key: PictureKey, png: bytes) -> str:
        """Upload a picture to the media chat: the Telegram file id an inline board needs."""
        if self.media_chat is None:
            raise InlineUnavailableError("no media chat to upload inline boards to")
        sent = await raw_calls.send_photo(
            self.bot, self.media_chat, photo=png, disable_notification=True
        )
        self.pictures.uploaded(key, sent)
        assert sent.file_id is not None  # a photo sent is answered with its sizes
        return sent.file_id

    async def _drawn_at(self, stored: StoredGame, message_id: int) -> None:
        chat = stored.chat_id
        self._drawn[chat] = max(self._drawn.get(chat, (0, 0)), _key(stored))
        self._message[chat] = (stored.game_id, message_id)
        await self.repo.mark_shown(chat, stored.game_id, stored.version, message_id=message_id)
