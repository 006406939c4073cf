"""A private chat at a human pace: a tap a second is redrawn within a second, even right
after a burst, because Telegram tolerates short bursts in a private chat (about one message
a second, a token bucket) and the bot spends that tolerance instead of a fixed 3 per 3 s.

Telegram's limits are on in the fake, and the bot's own budgets are on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from .conftest import BotUnderTest
from .fake_telegram import FakeTelegram

TAPS = 4
HUMAN_PACE = 1.0  # seconds between taps
REDRAW_LIMIT = 1.0  # seconds from a tap to its redraw reaching Telegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(enforce_limits=True, latency=0.02) as fake:
        yield fake


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"rate_limited": True}


async def test_a_tap_a_second_is_redrawn_within_a_second_after_a_burst(
    bot: BotUnderTest, tg: FakeTelegram
) -> None:
    anna = tg.user(11, "Anna")
    chat = tg.private_chat(anna)
    for command in ("/regole", "/aiuto", "/impostazioni"):  # three messages in a burst
        await bot.say(chat, anna, command)
    settings = tg.last_bot_message(chat)
    loop = asyncio.get_running_loop()
    delays = []
    for _ in range(TAPS):
        await asyncio.sleep(HUMAN_PACE)
        seen = len(tg.admissions)
        pressed = loop.time()
        await bot.press(
            chat, anna, settings, data=tg.message(chat, settings.message_id).callback_data[0]
        )
        redrawn = [at for at, chat_id in tg.admissions[seen:] if chat_id == chat.id]
        assert len(redrawn) == 1  # the settings' message, edited
        delays.append(redrawn[0] - pressed)
    assert max(delays) < REDRAW_LIMIT, delays
    assert tg.retry_afters[chat.id] == 0
