"""A player's own settings (/impostazioni), stored in Redis and valid in every chat.

Automatic confirmation is on unless the player (or the operator's default) turns it off:
in a group every extra tap costs a redraw of the shared board (Telegram allows about 20
per minute per group), the single steps can still be taken back until the last die is
used, and the whole-checker and complete-play buttons make a slip rare. Players who like
to check a play before passing the turn turn it off and get the Conferma button back.
"""

from __future__ import annotations

import contextlib

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.adapters import callback_data as cd
from bot.handlers.common import acknowledge, alert, display_name, edit_text, text_message
from bot.services import Services, services
from bot.texts import messages as T

AUTO_CONFIRM = "auto_confirm"


async def auto_confirm(svc: Services, user_id: int) -> bool:
    """Does this player want the turn to pass as soon as the dice are used?

    Players who never chose get the operator's default (``TAVOLA_AUTO_CONFIRM``, on)."""
    return auto_confirm_in(svc, await svc.repo.get_preferences(user_id))


def auto_confirm_in(svc: Services, preferences: dict[str, str]) -> bool:
    """:func:`auto_confirm` from a player's settings already read."""
    value = preferences.get(AUTO_CONFIRM)
    return svc.settings.auto_confirm if value is None else value == "1"


def _markup(owner: int, enabled: bool) -> InlineKeyboardMarkup:
    """The toggle, bound to the player whose settings the message shows."""
    toggle = cd.preference(AUTO_CONFIRM, "0" if enabled else "1", owner)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(T.btn_auto_confirm(enabled), callback_data=toggle)]]
    )


def _shows_settings_of(query: CallbackQuery, owner: int) -> bool:
    """Does the press come from a settings message of ``owner`` (a text with their toggle)?

    Telegram sends the pressed message with its current keyboard, which the presser cannot
    change: data typed by hand and pressed on a challenge card, a board photo, an inline
    message or someone else's settings finds no toggle of that owner there. (The toggle's
    value may differ: a double click sets the same value twice, harmlessly.)
    """
    message = text_message(query)
    if message is None or message.reply_markup is None:
        return False
    for row in message.reply_markup.inline_keyboard:
        for button in row:
            with contextlib.suppress(cd.BadCallbackDataError):
                if isinstance(button.callback_data, str):
                    shown = cd.decode_preference(cd.split(button.callback_data))
                    if shown[2] == owner:
                        return True
    return False


async def on_settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    enabled = await auto_confirm(services(context), user.id)
    await message.reply_html(
        T.settings_text(display_name(user), enabled), reply_markup=_markup(user.id, enabled)
    )


async def on_settings_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The player whose settings a message shows changes them there; anything else (another
    member's press, data carried to another message) is refused and changes nothing."""
    query = update.callback_query
    assert query is not None
    try:
        name, value, owner = cd.decode_preference(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if name != AUTO_CONFIRM or not _shows_settings_of(query, owner):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if owner != query.from_user.id:
        await alert(query, T.ALERT_NOT_YOUR_SETTINGS)
        return
    enabled = value == "1"
    await services(context).repo.set_preference(query.from_user.id, AUTO_CONFIRM, value)
    await acknowledge(query)
    await edit_text(
        query, T.settings_text(display_name(query.from_user), enabled), _markup(owner, enabled)
    )
