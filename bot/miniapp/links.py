"""How a table's Mini App is opened from Telegram.

A ``web_app`` button opens it in place, but Telegram allows that button only in a private
chat between a user and the bot (400 BUTTON_TYPE_INVALID in groups and inline messages).
There, a direct link does the same: ``https://t.me/<bot>/<app>?startapp=<table>``, where
``<app>`` is the Mini App's short name in @BotFather and the table reaches the page as
``start_param`` (inside the signed launch data). The bot's menu button opens the page too.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from telegram import Bot, InlineKeyboardButton, MenuButtonWebApp, WebAppInfo

from bot.adapters import places
from bot.config import Settings
from bot.game.table import Table
from bot.miniapp.view import table_id
from bot.texts import miniapp as TEXTS

OpenButton = Callable[[int, Table], InlineKeyboardButton | None]


def is_private(key: int) -> bool:
    """A private chat's key is the user's id: positive, below the derived keys."""
    return key > 0 and not places.is_topic_key(key) and not places.is_inline_key(key)


def page_url(settings: Settings, key: int) -> str:
    assert settings.miniapp_url
    return f"{settings.miniapp_url}?table={quote(table_id(key))}"


def direct_link(settings: Settings, bot_username: str, key: int) -> str | None:
    if not settings.miniapp_name or not bot_username:
        return None
    return f"https://t.me/{bot_username}/{settings.miniapp_name}?startapp={table_id(key)}"


def open_button(settings: Settings, bot: Bot) -> OpenButton:
    """The board's button that opens its table in the Mini App, for a place's key."""

    def button(key: int, table: Table) -> InlineKeyboardButton | None:
        if is_private(key):
            return InlineKeyboardButton(
                TEXTS.OPEN_BUTTON, web_app=WebAppInfo(page_url(settings, key))
            )
        link = direct_link(settings, bot.username or "", key)
        return None if link is None else InlineKeyboardButton(TEXTS.OPEN_BUTTON, url=link)

    return button


async def publish_menu_button(bot: Bot, settings: Settings) -> None:
    """The bot's menu button (in every private chat) opens the Mini App."""
    assert settings.miniapp_url
    await bot.set_chat_menu_button(
        menu_button=MenuButtonWebApp(TEXTS.MENU_BUTTON, WebAppInfo(settings.miniapp_url))
    )
