"""The command menus and descriptions Telegram shows are in step with the commands handled:
every registered command is in a menu or listed as hidden, every menu command is handled,
and the texts fit Telegram's limits."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from telegram.constants import BotCommandLimit, BotDescriptionLimit
from telegram.ext import CommandHandler

from bot.adapters import menus
from bot.app import build_application
from bot.computer import ComputerPool
from bot.config import Settings
from bot.texts import messages as T
from engine.serialize import SCHEMA_VERSION
from storage import GameRepository, SchemaRegistry


@pytest.fixture(scope="module")
def registered() -> frozenset[str]:
    """Every command the application handles (never started: no request is made)."""
    repo = GameRepository(
        aioredis.Redis.from_url("redis://127.0.0.1:1"), SchemaRegistry(current=SCHEMA_VERSION)
    )
    app = build_application(Settings(token="1:x", rate_limit=False), repo, computer=ComputerPool(1))
    return frozenset(
        command
        for group in app.handlers.values()
        for handler in group
        if isinstance(handler, CommandHandler)
        for command in handler.commands
    )


def test_every_handled_command_is_in_a_menu_or_hidden(registered: frozenset[str]) -> None:
    shown = {c.command for c in menus.private_menu()} | {c.command for c in menus.group_menu()}
    assert registered - shown == T.HIDDEN_COMMANDS
    assert shown <= registered  # no menu entry that nothing handles
    assert not shown & T.HIDDEN_COMMANDS


def test_each_scope_gets_the_commands_that_make_sense_there() -> None:
    private = [c.command for c in menus.private_menu()]
    group = [c.command for c in menus.group_menu()]
    assert "gioca" in private and "gioca" not in group  # the computer plays in private
    assert "classifica" in group and "classifica" not in private
    assert "sfida" in group and "aiuto" in private and "aiuto" in group
    assert {c for c, _ in T.COMMANDS} >= T.NOT_IN_PRIVATE_MENU  # no stale exclusions
    assert {c for c, _ in T.COMMANDS} >= T.NOT_IN_GROUP_MENU


def test_the_texts_fit_telegram_s_limits() -> None:
    for menu in (menus.private_menu(), menus.group_menu()):
        assert len(menu) <= BotCommandLimit.MAX_COMMAND_NUMBER
    assert 0 < len(T.BOT_DESCRIPTION) <= BotDescriptionLimit.MAX_DESCRIPTION_LENGTH
    assert 0 < len(T.BOT_SHORT_DESCRIPTION) <= BotDescriptionLimit.MAX_SHORT_DESCRIPTION_LENGTH
