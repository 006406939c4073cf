"""The fake Bot API server's file ids: a sent photo's id can be sent again, until the fake is
told to forget it (``forget_files``), as Telegram sometimes does; then it is refused with
"wrong file identifier" (and getFile with "invalid file_id"), and an upload works again.

Driven by the real PTB `Bot` over HTTP.
"""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest

from .fake_telegram import FakeTelegram, FakeUser
from .ptb_client import (
    png,
    ptb_bot,  # noqa: F401 (fixtures)
)


async def test_a_forgotten_file_id_is_refused_and_an_upload_still_works(
    bot: Bot, tg: FakeTelegram
) -> None:
    anna: FakeUser = tg.user(101, "Anna", "anna")
    chat = tg.private_chat(anna)
    first = await bot.send_photo(chat.id, png("white", (120, 80)))
    file_id = first.photo[-1].file_id
    again = await bot.send_photo(chat.id, file_id)  # known: sent by its id
    assert again.photo[-1].file_id
    assert tg.forget_files() > 0
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(chat.id, file_id)
    with pytest.raises(BadRequest, match=r"(?i)invalid file_id"):
        await bot.get_file(file_id)
    fresh = await bot.send_photo(chat.id, png("white", (120, 80)))
    assert fresh.photo[-1].file_id != file_id
    assert (await bot.send_photo(chat.id, fresh.photo[-1].file_id)).photo
