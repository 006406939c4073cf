"""The fake Bot API refuses Mini App buttons where Telegram does: a ``web_app`` button is
allowed only in a private chat with the bot, and only with an HTTPS address."""

from __future__ import annotations

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import BadRequest

from .fake_telegram import FakeChat, FakeTelegram
from .ptb_client import alice_chat, alice_user, ptb_bot  # noqa: F401 (fixtures)


def _web_app(url: str = "https://tavola.example.org/app/") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("Apri", web_app=WebAppInfo(url))]])


async def test_a_web_app_button_is_accepted_in_a_private_chat(bot: Bot, chat: FakeChat) -> None:
    sent = await bot.send_message(chat.id, "tavolo", reply_markup=_web_app())
    assert sent.reply_markup is not None


async def test_a_web_app_button_is_refused_in_a_group_and_an_inline_message(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    group = tg.group(-100777, "Circolo")
    with pytest.raises(BadRequest, match="Button_type_invalid"):
        await bot.send_message(group.id, "tavolo", reply_markup=_web_app())
    plain = await bot.send_message(group.id, "tavolo")
    with pytest.raises(BadRequest, match="Button_type_invalid"):
        await bot.edit_message_reply_markup(group.id, plain.message_id, reply_markup=_web_app())
    with pytest.raises(BadRequest, match="Button_type_invalid"):
        await bot.edit_message_reply_markup(inline_message_id="AAAA", reply_markup=_web_app())
    # A link to the Mini App is an ordinary URL button: allowed everywhere.
    link = InlineKeyboardButton("Apri", url="https://t.me/tavola_test_bot/tavolo?startapp=tm1")
    await bot.send_message(group.id, "tavolo", reply_markup=InlineKeyboardMarkup([[link]]))


async def test_a_web_app_button_needs_an_https_address(bot: Bot, chat: FakeChat) -> None:
    with pytest.raises(BadRequest, match="Button_url_invalid"):
        await bot.send_message(chat.id, "tavolo", reply_markup=_web_app("http://127.0.0.1/app/"))
