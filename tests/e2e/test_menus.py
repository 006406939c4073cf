"""At start-up the bot publishes a command menu for private chats and one for groups, and
its Italian description and short description, sparing the requests that change nothing."""

from __future__ import annotations

import json

from bot.texts import messages as T

from .conftest import BotUnderTest
from .fake_telegram import FakeTelegram


def _menu(tg: FakeTelegram, scope: str) -> list[str]:
    key = f"{json.dumps({'type': scope})}|"
    return [c["command"] for c in tg.commands.get(key, [])]


async def test_menus_per_scope_and_descriptions_are_published_once(
    bot: BotUnderTest, tg: FakeTelegram
) -> None:
    private, group = _menu(tg, "all_private_chats"), _menu(tg, "all_group_chats")
    assert "gioca" in private and "classifica" not in private
    assert "classifica" in group and "gioca" not in group
    assert "start" not in private + group
    assert tg.descriptions == {
        ("description", ""): T.BOT_DESCRIPTION,
        ("short_description", ""): T.BOT_SHORT_DESCRIPTION,
    }
    assert [r.method for r in tg.requests].count("setMyDescription") == 1

    await bot.restart()  # the descriptions are already there: not sent again
    methods = [r.method for r in tg.requests]
    assert methods.count("getMyDescription") == 2
    assert methods.count("setMyDescription") == 1
    assert methods.count("setMyShortDescription") == 1
    assert methods.count("setMyCommands") == 4
