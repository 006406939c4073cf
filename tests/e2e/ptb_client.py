"""PTB's own `Bot` client against the fake server, for the tests of the fake itself.

A `test_fake_*` module imports the fixtures it needs from here; there ``bot`` is the raw PTB
client instead of the conftest's running Tavola bot, so each refusal is seen as the exception
PTB raises in production, and ``alice`` and ``chat`` are a user and her private chat.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager

import pytest
from PIL import Image
from telegram import Bot
from telegram.error import BadRequest

from .fake_telegram import FakeChat, FakeTelegram, FakeUser


@pytest.fixture(name="bot")
async def ptb_bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as client:
        yield client


@pytest.fixture(name="alice")
def alice_user(tg: FakeTelegram) -> FakeUser:
    return tg.user(1001, "Alice", "alice")


@pytest.fixture(name="chat")
def alice_chat(tg: FakeTelegram, alice: FakeUser) -> FakeChat:
    return tg.private_chat(alice)


def png(color: str, size: tuple[int, int] = (60, 40)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def refused(description: str) -> AbstractContextManager[pytest.ExceptionInfo[BadRequest]]:
    """Expect PTB's BadRequest with Telegram's description (PTB changes its capitalisation)."""
    return pytest.raises(BadRequest, match=re.compile(re.escape(description), re.IGNORECASE))
