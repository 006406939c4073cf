"""Button data refused by where it was pressed, before any family's handler sees it.

An inline message (a card or board posted through inline mode) only ever carries game
buttons (``g:``), the card's own (``j:``) and a finished game's replay and export (``v:``).
Any other family's data there was written by hand: the handlers of those families work on
chat messages (they need the chat, the message's text, its id) and must not even be reached.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import CallbackQueryHandler, ContextTypes

from bot.handlers.common import alert
from bot.texts import messages as T

#: The families whose buttons an inline message may carry.
INLINE_FAMILIES = ("g:", "j:", "v:")


async def _refuse(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.callback_query is not None
    await alert(update.callback_query, T.ALERT_STALE_BUTTON)


class ChatOnlyOnInline(CallbackQueryHandler[Any, None]):
    """Matches a press on an inline message whose data is of a chat-only family, and
    refuses it (registered before the families' handlers)."""

    def __init__(self) -> None:
        super().__init__(_refuse)

    def check_update(self, update: object) -> bool:
        if not isinstance(update, Update) or update.callback_query is None:
            return False
        query = update.callback_query
        return query.inline_message_id is not None and not (query.data or "").startswith(
            INLINE_FAMILIES
        )
