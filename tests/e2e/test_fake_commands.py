"""The fake Bot API server's command menus and descriptions, as Telegram keeps them: one menu
per scope (and language), scopes checked, the bot's description (0-512 characters) and
short description (0-120) stored per language and read back with getMyDescription and
getMyShortDescription.

Driven by the real PTB `Bot` over HTTP, as the bot calls them at start-up.
"""

from __future__ import annotations

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeChatMember,
)
from telegram.error import BadRequest

from .fake_telegram import FakeTelegram
from .ptb_client import ptb_bot  # noqa: F401 (fixtures)


async def test_each_scope_keeps_its_own_menu(bot: Bot) -> None:
    private = [BotCommand("gioca", "Contro il computer")]
    group = [BotCommand("sfida", "Lancia una sfida"), BotCommand("classifica", "La classifica")]
    assert await bot.set_my_commands(private, scope=BotCommandScopeAllPrivateChats())
    assert await bot.set_my_commands(group, scope=BotCommandScopeAllGroupChats())
    assert await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats()) == tuple(private)
    assert await bot.get_my_commands(scope=BotCommandScopeAllGroupChats()) == tuple(group)
    assert await bot.get_my_commands() == ()  # the default scope was never set
    assert await bot.get_my_commands(scope=BotCommandScopeChat(-1001)) == ()
    member = BotCommandScopeChatMember(-1001, 7)
    assert await bot.set_my_commands(private, scope=member)
    assert await bot.get_my_commands(scope=member) == tuple(private)
    assert await bot.get_my_commands(language_code="it", scope=BotCommandScopeAllGroupChats()) == ()


async def test_a_malformed_scope_or_language_is_refused(bot: Bot, tg: FakeTelegram) -> None:
    commands = [BotCommand("aiuto", "Aiuto")]
    with pytest.raises(BadRequest, match=r"(?i)botcommandscope"):
        await bot._post("setMyCommands", {"commands": commands, "scope": {"type": "everyone"}})
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot._post("setMyCommands", {"commands": commands, "scope": {"type": "chat"}})
    scope = {"type": "chat_member", "chat_id": -1001}  # and which member?
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot._post("setMyCommands", {"commands": commands, "scope": scope})
    with pytest.raises(BadRequest, match=r"(?i)language code"):
        await bot.set_my_commands(commands, language_code="italiano")
    assert tg.commands == {}  # nothing stored by a refused call


async def test_descriptions_are_stored_per_language_within_telegram_s_lengths(bot: Bot) -> None:
    assert (await bot.get_my_description()).description == ""
    assert (await bot.get_my_short_description()).short_description == ""
    assert await bot.set_my_description("d" * 512)
    assert await bot.set_my_short_description("s" * 120)
    assert (await bot.get_my_description()).description == "d" * 512
    assert (await bot.get_my_short_description()).short_description == "s" * 120
    # A language without its own text shows the one for every language.
    assert (await bot.get_my_description(language_code="en")).description == "d" * 512
    assert await bot.set_my_description("English", language_code="en")
    assert (await bot.get_my_description(language_code="en")).description == "English"
    assert (await bot.get_my_description()).description == "d" * 512

    with pytest.raises(BadRequest, match=r"(?i)^description is too long"):
        await bot.set_my_description("d" * 513)
    with pytest.raises(BadRequest, match=r"(?i)short description is too long"):
        await bot.set_my_short_description("s" * 121)
    assert (await bot.get_my_description()).description == "d" * 512  # unchanged

    assert await bot.set_my_short_description("")  # an empty text removes it
    assert (await bot.get_my_short_description()).short_description == ""
