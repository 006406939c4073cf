"""The fake's fault injection: a request that takes effect while its reply never arrives in
time (the client times out, the message exists all the same)."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import TimedOut

from .fake_telegram import FakeTelegram


async def test_a_delayed_reply_times_out_while_the_message_exists() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1, "Anna")
        chat = tg.private_chat(anna)
        async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            tg.delay_reply("sendMessage", 1.0)
            with pytest.raises(TimedOut):
                await bot.send_message(chat.id, "uno", read_timeout=0.3)
            assert [m.text for m in tg.chat_messages(chat, from_bot=True)] == ["uno"]
            sent = await bot.send_message(chat.id, "due", read_timeout=0.3)  # once only
            assert sent.text == "due"
            await bot.get_me(read_timeout=0.3)  # other methods are not delayed
