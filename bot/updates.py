"""How updates reach the handlers: many chats at once, each chat in order, each update once.

PTB runs updates concurrently through an update processor. Ours keeps one lock per chat,
so the updates of one chat are handled in the order they arrived (a chat never races itself
into version conflicts) while other chats go on. ``claim_once`` runs before every handler
and drops an update that was already handled, by this process before a restart or by
another webhook worker: Telegram may deliver an update more than once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import ApplicationHandlerStop, BaseUpdateProcessor, ContextTypes

from bot import places
from bot.services import services

log = logging.getLogger(__name__)

#: Updates handled at once across all chats; a chat's own updates still run one by one.
MAX_CONCURRENT_UPDATES = 256
#: How long an update id is remembered: Telegram re-delivers within hours, not days.
UPDATE_MEMORY_SECONDS = 24 * 3600


def chat_key(update: object) -> int | None:
    """The place (a chat, a forum topic, an inline message: see ``bot.places``) whose order
    an update must keep (None: no ordering needed). Two topics of one group are two places:
    their games go on side by side."""
    if not isinstance(update, Update):
        return None
    place = places.of_update(update)  # a press on an inline message: that message's game
    if place is not None:
        return place.key
    if update.effective_user is not None:
        return update.effective_user.id
    return None


class _ChatLock:
    """A lock that remembers how many updates hold or wait for it, so idle ones can go."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Concurrent across chats, sequential within a chat (arrival order: asyncio locks are
    fair, first come first served)."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, _ChatLock] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        if key is None:
            await coroutine
            return
        entry = self._locks.get(key)
        if entry is None:
            entry = self._locks[key] = _ChatLock()
        entry.users += 1
        try:
            async with entry.lock:
                await coroutine
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


async def claim_once(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update that was already handled (a duplicate delivery) before any handler."""
    repo = services(context).repo
    if not await repo.claim_update(context.bot.id, update.update_id, UPDATE_MEMORY_SECONDS):
        log.info("update %s was already handled: skipped", update.update_id)
        raise ApplicationHandlerStop
