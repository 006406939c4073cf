"""Small helpers shared by the handlers."""

from __future__ import annotations

from telegram import CallbackQuery, Update, User

from bot.texts import messages as T


def display_name(user: User) -> str:
    name = user.full_name.strip() or (f"@{user.username}" if user.username else str(user.id))
    return name[:64]


async def alert(query: CallbackQuery, text: str) -> None:
    """Refuse a button press with a short pop-up (never a message in the chat)."""
    await query.answer(text[: T.MAX_ALERT_CHARS], show_alert=True)


async def reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_html(text, do_quote=True)
