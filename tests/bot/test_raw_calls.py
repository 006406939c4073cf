"""The painter's calls without PTB's Message (``bot.adapters.raw_calls``): through PTB and the
bot's own client to the fake Bot API server, they answer the message id and the picture's
file id Telegram gave, and every refusal is raised as PTB's own methods raise it."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import InputMediaPhoto
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.ext import ExtBot

from bot.adapters import raw_calls
from bot.app import bot_request
from tests.e2e.fake_telegram import FakeTelegram


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(out, "PNG")
    return out.getvalue()


PICTURE = png("green")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[ExtBot[None]]:
    client = ExtBot(tg.token, base_url=tg.base_url, request=bot_request())
    await client.initialize()
    yield client
    await client.shutdown()


async def test_a_sent_picture_answers_its_message_id_and_file_id(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    alice = tg.user(1, "Alice")
    chat = tg.private_chat(alice)
    sent = await raw_calls.send_photo(
        bot, chat.id, PICTURE, caption="<b>Turno</b>", parse_mode="HTML"
    )
    stored = tg.message(chat, sent.message_id)
    assert stored.photo == PICTURE
    assert stored.caption == "Turno"
    assert sent.file_id == stored.photo_sizes[-1]["file_id"]

    again = await raw_calls.send_photo(bot, chat.id, sent.file_id or "", caption="di nuovo")
    assert tg.message(chat, again.message_id).photo == PICTURE


async def test_an_edit_answers_the_message_and_refusals_are_ptbs(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    alice = tg.user(1, "Alice")
    chat = tg.private_chat(alice)
    first = await raw_calls.send_photo(bot, chat.id, PICTURE, caption="uno")
    assert first.file_id is not None
    media = InputMediaPhoto(first.file_id, caption="due")
    edited = await raw_calls.edit_message_media(
        bot, media, chat_id=chat.id, message_id=first.message_id
    )
    stored = tg.message(chat, first.message_id)
    assert edited == raw_calls.Sent(first.message_id, stored.photo_sizes[-1]["file_id"])
    assert stored.caption == "due"

    with pytest.raises(BadRequest, match="not modified"):
        await raw_calls.edit_message_media(bot, media, chat_id=chat.id, message_id=first.message_id)
    tg.inject_retry_after(chat, 3)
    with pytest.raises(RetryAfter):
        await raw_calls.edit_message_caption(bot, chat.id, first.message_id, caption="tre")


async def test_a_moved_or_lost_group_is_refused_as_ptb_refuses_it(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    alice = tg.user(1, "Alice")
    group = tg.group(-500, "Circolo")
    sent = await raw_calls.send_photo(bot, group.id, PICTURE)
    supergroup = tg.migrate_group(group, alice, notify=False)
    with pytest.raises(ChatMigrated) as moved:
        await raw_calls.edit_message_caption(bot, group.id, sent.message_id, caption="x")
    assert moved.value.new_chat_id == supergroup.id

    tg.remove_bot_from_group(supergroup, alice, notify=False)
    with pytest.raises(Forbidden):
        await raw_calls.send_photo(bot, supergroup.id, PICTURE)
