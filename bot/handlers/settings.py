"""A player's own settings (/impostazioni), stored in Redis and valid in every chat.

Automatic confirmation is on unless the player (or the operator's default) turns it off:
in a group every extra tap costs a redraw of the shared board (Telegram allows about 20
per minute per group), the single steps can still be taken back until the last die is
used, and the whole-checker and complete-play buttons make a slip rare. Players who like
to check a play before passing the turn turn it off and get the Conferma button back.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot import callback_data as cd
from bot.handlers.common import acknowledge, alert, display_name
from bot.services import Services, services
from bot.texts import messages as T

AUTO_CONFIRM = "auto_confirm"


async def auto_confirm(svc: Services, user_id: int) -> bool:
    """Does this player want the turn to pass as soon as the dice are used?

    Players who never chose get the operator's default (``TAVOLA_AUTO_CONFIRM``, on)."""
    value = (await svc.repo.get_preferences(user_id)).get(AUTO_CONFIRM)
    return svc.settings.auto_confirm if value is None else value == "1"


def _markup(enabled: bool) -> InlineKeyboardMarkup:
    toggle = cd.preference(AUTO_CONFIRM, "0" if enabled else "1")
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(T.btn_auto_confirm(enabled), callback_data=toggle)]]
    )


async def on_settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    enabled = await auto_confirm(services(context), user.id)
    await message.reply_html(
        T.settings_text(display_name(user), enabled), reply_markup=_markup(enabled)
    )


async def on_settings_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Whoever presses changes their own setting; the message then shows theirs."""
    query = update.callback_query
    assert query is not None
    parts = (query.data or "").split(":")
    if len(parts) != 3 or parts[1] != AUTO_CONFIRM or parts[2] not in ("0", "1"):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    enabled = parts[2] == "1"
    await services(context).repo.set_preference(query.from_user.id, AUTO_CONFIRM, parts[2])
    await acknowledge(query)
    await query.edit_message_text(
        T.settings_text(display_name(query.from_user), enabled),
        parse_mode="HTML",
        reply_markup=_markup(enabled),
    )
