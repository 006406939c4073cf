"""What Telegram shows of the bot before anyone writes: the command menus (one for private
chats, one for groups) and the bot's description and short description, in Italian.

Set at start-up. The menus are set each time (two requests); the descriptions only when they
differ from what Telegram has, since most starts change nothing. The texts and the lists are
in ``bot.texts.messages``; a test keeps the menus in step with the commands handled.
"""

from __future__ import annotations

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)

from bot.texts import messages as T


def private_menu() -> list[BotCommand]:
    return [BotCommand(c, d) for c, d in T.COMMANDS if c not in T.NOT_IN_PRIVATE_MENU]


def group_menu() -> list[BotCommand]:
    return [BotCommand(c, d) for c, d in T.COMMANDS if c not in T.NOT_IN_GROUP_MENU]


async def publish(bot: Bot) -> None:
    """The menus per scope, then the descriptions where they changed."""
    await bot.set_my_commands(private_menu(), scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(group_menu(), scope=BotCommandScopeAllGroupChats())
    if (await bot.get_my_description()).description != T.BOT_DESCRIPTION:
        await bot.set_my_description(T.BOT_DESCRIPTION)
    if (await bot.get_my_short_description()).short_description != T.BOT_SHORT_DESCRIPTION:
        await bot.set_my_short_description(T.BOT_SHORT_DESCRIPTION)
