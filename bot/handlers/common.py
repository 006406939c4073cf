"""Small helpers shared by the handlers."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update, User
from telegram.error import TelegramError

from bot.texts import messages as T

log = logging.getLogger(__name__)


def display_name(user: User) -> str:
    name = user.full_name.strip() or (f"@{user.username}" if user.username else str(user.id))
    return name[:64]


async def acknowledge(
    query: CallbackQuery, text: str | None = None, *, alert: bool = False
) -> bool:
    """Answer a button press; never let a failed answer stop what the press started.

    Telegram refuses answers that come too late ("query is too old") and the network may
    fail: the move is saved and shown all the same, so the failure is only logged.
    """
    try:
        await query.answer(text[: T.MAX_ALERT_CHARS] if text else None, show_alert=alert)
    except TelegramError as exc:
        log.info("could not answer callback query %s: %s", query.id, exc)
        return False
    return True


async def alert(query: CallbackQuery, text: str) -> None:
    """Refuse a button press with a short pop-up (never a message in the chat)."""
    await acknowledge(query, text, alert=True)


async def reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_html(text, do_quote=True)
