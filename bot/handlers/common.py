"""Small helpers shared by the handlers."""

from __future__ import annotations

import html
import logging

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatAction
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.texts import messages as T
from storage import CorruptGameError, NewerGameError
from storage.names import shorten_name

log = logging.getLogger(__name__)


def display_name(user: User) -> str:
    name = user.full_name.strip() or (f"@{user.username}" if user.username else str(user.id))
    # Whole characters only: never half an emoji or a flag (and no space left at the cut).
    return shorten_name(name).rstrip() or str(user.id)


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


def unreadable_game(exc: CorruptGameError) -> str:
    """What a player is told when the chat's game cannot be read: a newer release of the
    bot wrote it (try again once it has taken over), or it is damaged."""
    return T.GAME_TOO_NEW if isinstance(exc, NewerGameError) else T.GENERIC_ERROR


async def reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_html(text, do_quote=True)


def text_message(query: CallbackQuery) -> Message | None:
    """The text message a button sits on, or None when there is none to edit or reply to.

    Forged callback data can arrive from a button on the board photo, or from a message
    too old for Telegram to send (an InaccessibleMessage, which has no text and no reply).
    """
    message = query.message
    if isinstance(message, Message) and message.text is not None:
        return message
    return None


async def edit_text(
    query: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Show `text` (HTML) in place of the pressed message, if that message shows text.

    A double click sends the same page twice: the second edit would change nothing, which
    Telegram refuses as "not modified"; the page is already shown, which is all we want.
    """
    message = text_message(query)
    if message is None:
        return  # a forged press on the board photo: the answer to the press is enough
    # PTB escapes quotes that our texts leave as they are: compare without escapes.
    if html.unescape(message.text_html) == html.unescape(text) and message.reply_markup == (markup):
        return
    try:  # the message may have changed since the press (two clicks racing)
        await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise


async def can_write_privately(bot: Bot, user_id: int) -> bool:
    """May the bot write to this user's private chat? (They must have started it; a chat
    action is the cheapest probe, and shows "typing" while the answer is prepared.)"""
    try:
        await bot.send_chat_action(user_id, ChatAction.TYPING)
    except (Forbidden, BadRequest):
        return False
    return True


def carries_family(query: CallbackQuery, prefix: str) -> bool:
    """Is the pressed message a text message whose own keyboard has buttons of this family
    (callback data starting with ``prefix``, such as ``"r:"``)?

    Telegram sends the pressed message with its current keyboard, which the presser cannot
    change: one family's data typed by hand and pressed on another kind of message (rules
    navigation on a challenge card, say) is recognised and must change nothing there.
    """
    message = text_message(query)
    if message is None or message.reply_markup is None:
        return False
    return any(
        isinstance(button.callback_data, str) and button.callback_data.startswith(prefix)
        for row in message.reply_markup.inline_keyboard
        for button in row
    )
