"""The fake Bot API server, driven by the real PTB `Bot` and `Application` over real HTTP.

These tests pin down that the fake behaves like Telegram where the bot's e2e tests rely on it:
updates reach handlers, the message store follows every edit, and each enforced limit makes PTB
raise the same `BadRequest` that production would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound, Forbidden, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.adapters.ratelimit import retry_seconds

from .fake_telegram import FakeChat, FakeTelegram, FakeTelegramUsageError, FakeUser
from .ptb_client import alice_chat, alice_user, png, ptb_bot, refused  # noqa: F401 (fixtures)

PNG_HEADER = b"\x89PNG\r\n\x1a\n"


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(d.capitalize(), callback_data=d)] for d in data]
    )


# -- a tiny application: /start sends a board with buttons; "roll" redraws it --------------


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_photo(
        png("white"), caption="Tocca a te", reply_markup=keyboard("roll", "pass")
    )


async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    if query.data == "roll":
        await query.edit_message_media(
            InputMediaPhoto(png("black"), caption="Hai tirato 6-5"),
            reply_markup=keyboard("move", "pass"),
        )
        await query.answer("Dadi tirati")
    else:
        await query.answer("Pulsante scaduto", show_alert=True)


@pytest.fixture
async def app(tg: FakeTelegram) -> AsyncIterator[Application]:
    application = (
        ApplicationBuilder()
        .token(tg.token)
        .base_url(tg.base_url)
        .base_file_url(tg.base_file_url)
        .build()
    )
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(button))
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        yield application
        await application.updater.stop()
        await application.stop()


# -- the application round trip ------------------------------------------------------------


async def test_command_reaches_handler_and_reply_is_recorded(
    tg: FakeTelegram, app: Application, chat: FakeChat, alice: FakeUser
) -> None:
    command = tg.send_message(chat, alice, "/start")
    assert command.entities == [{"type": "bot_command", "offset": 0, "length": 6}]

    reply = await tg.wait_for("sendPhoto")
    await tg.settle()

    assert reply.files["photo"].startswith(PNG_HEADER)
    assert [r.method for r in tg.calls(since=tg.turn_start)] == ["sendPhoto"]
    shown = tg.last_bot_message(chat)
    assert shown.photo == reply.files["photo"]
    assert shown.caption == "Tocca a te"
    assert shown.callback_data == ["roll", "pass"]
    assert tg.errors() == []


async def test_button_press_round_trip(
    tg: FakeTelegram, app: Application, chat: FakeChat, alice: FakeUser
) -> None:
    tg.send_message(chat, alice, "/start")
    await tg.wait_for("sendPhoto")
    board = tg.last_bot_message(chat)
    first_photo = board.photo

    turn = len(tg.requests)
    query_id = tg.press(chat, alice, board, board.data_for("Roll"))
    await tg.wait_for("answerCallbackQuery")
    await tg.settle()

    assert [r.method for r in tg.calls(since=turn)] == ["editMessageMedia", "answerCallbackQuery"]
    assert board.caption == "Hai tirato 6-5"
    assert board.photo is not None and board.photo.startswith(PNG_HEADER)
    assert board.photo != first_photo
    assert board.callback_data == ["move", "pass"]
    assert board.edits == 1
    assert tg.callback_answer(query_id) == {
        "text": "Dadi tirati",
        "show_alert": False,
        "url": None,
        "cache_time": None,
    }


async def test_only_existing_buttons_can_be_pressed_unless_forged(
    tg: FakeTelegram, app: Application, chat: FakeChat, alice: FakeUser
) -> None:
    tg.send_message(chat, alice, "/start")
    await tg.wait_for("sendPhoto")
    board = tg.last_bot_message(chat)

    with pytest.raises(FakeTelegramUsageError):
        tg.press(chat, alice, board, "move")  # not on the keyboard yet
    with pytest.raises(FakeTelegramUsageError):
        tg.press(chat, alice, board.message_id + 50, "roll")

    query_id = tg.press(chat, alice, board, "stale:v0", forge=True)
    await tg.wait_for("answerCallbackQuery")
    assert tg.callback_answer(query_id) == {
        "text": "Pulsante scaduto",
        "show_alert": True,
        "url": None,
        "cache_time": None,
    }


# -- Telegram's refusals, through the plain Bot ---------------------------------------------


async def test_callback_data_is_limited_to_64_bytes(bot: Bot, chat: FakeChat) -> None:
    at_limit = "x" * 64
    await bot.send_message(chat.id, "ok", reply_markup=keyboard(at_limit))
    empty_data = InlineKeyboardMarkup([[InlineKeyboardButton("Vuoto", callback_data="")]])
    # 33 characters but 66 bytes: Telegram counts bytes.
    with refused("button_data_invalid"):
        await bot.send_message(chat.id, "no", reply_markup=keyboard("è" * 33))
    with refused("button_data_invalid"):
        await bot.send_message(chat.id, "no", reply_markup=empty_data)


async def test_at_most_100_buttons_and_8_per_row(bot: Bot, chat: FakeChat) -> None:
    def grid(rows: int, columns: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(str(c), callback_data=f"{r}:{c}") for c in range(columns)]
                for r in range(rows)
            ]
        )

    await bot.send_message(chat.id, "ok", reply_markup=grid(20, 5))
    with refused("reply markup is too long"):
        await bot.send_message(chat.id, "no", reply_markup=grid(17, 6))
    with refused("reply markup is too long"):
        await bot.send_message(chat.id, "no", reply_markup=grid(1, 9))


async def test_caption_is_limited_to_1024_characters_after_markup(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    sent = await bot.send_photo(
        chat.id, png("red"), caption="<b>" + "é" * 1024 + "</b>", parse_mode=ParseMode.HTML
    )
    stored = tg.message(chat, sent.message_id)
    assert stored.caption == "é" * 1024
    assert stored.caption_entities == [{"type": "bold", "offset": 0, "length": 1024}]

    with refused("message caption is too long"):
        await bot.send_photo(chat.id, png("red"), caption="x" * 1025)
    with refused("message caption is too long"):
        await bot.edit_message_caption(chat.id, sent.message_id, caption="x" * 1025)
    with refused("message caption is too long"):
        await bot.edit_message_media(
            InputMediaPhoto(png("blue"), caption="x" * 1025), chat.id, sent.message_id
        )
    assert stored.caption == "é" * 1024  # refused edits change nothing


async def test_text_is_limited_to_4096_characters(bot: Bot, chat: FakeChat) -> None:
    await bot.send_message(chat.id, "y" * 4096)
    with refused("message is too long"):
        await bot.send_message(chat.id, "y" * 4097)
    with refused("message text is empty"):
        await bot.send_message(chat.id, "<b></b>", parse_mode=ParseMode.HTML)


async def test_edits_that_change_nothing_are_not_modified(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    image = png("green")
    sent = await bot.send_photo(chat.id, image, caption="Turno 1", reply_markup=keyboard("roll"))

    with refused("message is not modified"):
        await bot.edit_message_caption(
            chat.id, sent.message_id, caption="Turno 1", reply_markup=keyboard("roll")
        )
    with refused("message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(image, caption="Turno 1"),
            chat.id,
            sent.message_id,
            reply_markup=keyboard("roll"),
        )
    with refused("message is not modified"):
        await bot.edit_message_reply_markup(chat.id, sent.message_id, reply_markup=keyboard("roll"))

    # Leaving out reply_markup removes the keyboard, as on Telegram: that is a change.
    await bot.edit_message_caption(chat.id, sent.message_id, caption="Turno 1")
    assert tg.message(chat, sent.message_id).keyboard == []
    assert len(tg.errors()) == 3


async def test_editing_a_missing_or_foreign_message_fails(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    other = tg.group(-1002, "Circolo")
    sent = await bot.send_message(chat.id, "Partita", reply_markup=keyboard("roll"))
    await bot.send_message(other.id, "Altra partita")

    with refused("message to edit not found"):
        await bot.edit_message_text("Nuovo", chat.id, sent.message_id + 10)
    with refused("message to edit not found"):
        await bot.edit_message_text("Nuovo", other.id, sent.message_id + 1)
    with refused("there is no caption"):
        await bot.edit_message_caption(chat.id, sent.message_id, caption="Nuovo")
    users_message = tg.send_message(chat, alice, "ciao")
    with refused("message can't be edited"):
        await bot.edit_message_text("Nuovo", chat.id, users_message.message_id)

    assert await bot.delete_message(chat.id, sent.message_id)
    assert tg.message(chat, sent.message_id).deleted
    with refused("message to edit not found"):
        await bot.edit_message_text("Nuovo", chat.id, sent.message_id)
    with refused("message to delete not found"):
        await bot.delete_message(chat.id, sent.message_id)


async def test_answering_a_callback_query_twice_fails(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    sent = await bot.send_message(chat.id, "Partita", reply_markup=keyboard("roll"))
    query_id = tg.press(chat, alice, sent.message_id, "roll")

    assert await bot.answer_callback_query(query_id, "Fatto")
    with refused("query is too old"):
        await bot.answer_callback_query(query_id, "Di nuovo")
    with refused("query id is invalid"):
        await bot.answer_callback_query("999", "Mai esistita")
    assert tg.callback_answer(query_id) is not None
    assert tg.callback_answer(query_id)["text"] == "Fatto"


async def test_malformed_markup_is_refused(bot: Bot, chat: FakeChat) -> None:
    with refused("can't parse entities"):
        await bot.send_message(chat.id, "<b>aperto", parse_mode=ParseMode.HTML)
    with refused("can't parse entities"):
        await bot.send_message(chat.id, "3 < 5", parse_mode=ParseMode.HTML)
    with refused("can't parse entities"):
        await bot.send_message(chat.id, "<br>", parse_mode=ParseMode.HTML)
    with refused("character '.' is reserved"):
        await bot.send_message(chat.id, "Fine.", parse_mode=ParseMode.MARKDOWN_V2)
    await bot.send_message(chat.id, "*Fine*\\.", parse_mode=ParseMode.MARKDOWN_V2)
    await bot.send_message(chat.id, "3 &lt; 5 <i>ok</i>", parse_mode=ParseMode.HTML)


async def test_other_refusals(bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser) -> None:
    with refused("chat not found"):
        await bot.send_message(424242, "chi?")
    question = tg.send_message(chat, alice, "ciao")
    answer = await bot.send_message(
        chat.id, "re", reply_parameters=ReplyParameters(question.message_id)
    )
    assert answer.reply_to_message is not None and answer.reply_to_message.text == "ciao"
    with refused("message to be replied not found"):
        await bot.send_message(chat.id, "re", reply_parameters=ReplyParameters(77))
    with refused("image_process_failed"):
        await bot.send_photo(chat.id, b"not an image")
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendDiceTwice", api_kwargs={"chat_id": chat.id})
    tg.block(alice)
    with pytest.raises(Forbidden):
        await bot.send_message(chat.id, "ciao")


# -- the rest of the surface ------------------------------------------------------------------


async def test_get_updates_confirms_with_offset(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    tg.send_message(chat, alice, "/start")
    tg.send_message(chat, alice, "ciao")

    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates if u.message] == ["/start", "ciao"]
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == (updates[1],)
    assert await bot.get_updates(offset=updates[1].update_id + 1, timeout=0) == ()
    assert tg.pending_updates == 0


async def test_commands_photos_and_files_round_trip(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    me = await bot.get_me()
    assert me.id == 123 and me.is_bot

    commands = [BotCommand("nuova", "Nuova partita"), BotCommand("regole", "Le regole")]
    assert await bot.set_my_commands(commands)
    assert await bot.get_my_commands() == tuple(commands)
    with refused("bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Nuova-Partita", "no")])

    image = png("purple", (300, 200))
    sent = await bot.send_photo(chat.id, image)
    assert sent.photo[-1].width == 300 and sent.photo[-1].height == 200
    resent = await bot.send_photo(chat.id, sent.photo[-1].file_id)
    assert tg.message(chat, resent.message_id).photo == image
    downloaded = await (await bot.get_file(sent.photo[-1].file_id)).download_as_bytearray()
    assert bytes(downloaded) == image

    assert (await bot.get_chat(chat.id)).first_name == "Alice"
    assert await bot.send_chat_action(chat.id, "upload_photo")
    assert tg.chat_actions == [(chat.id, "upload_photo")]
    with pytest.raises(BadRequest):
        await bot.send_chat_action(chat.id, "juggling")


# -- opt-in realism: latency, flood limits, 429s, late answers, counters ----------------------


@asynccontextmanager
async def realistic(**options: Any) -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    """A fake with the given realism options and a plain Bot (no rate limiter) talking to it."""
    async with (
        FakeTelegram(**options) as fake,
        Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url) as client,
    ):
        yield fake, client


async def test_latency_is_added_to_every_request() -> None:
    async with realistic(latency=0.2) as (_tg, bot):
        start = time.monotonic()
        await bot.get_me()
        assert time.monotonic() - start >= 0.2


async def test_a_group_over_its_budget_gets_429_and_other_chats_do_not() -> None:
    async with realistic(enforce_limits=True, group_limit=(2, 60.0)) as (tg, bot):
        alice = tg.user(1001, "Alice")
        private = tg.private_chat(alice)
        group, other = tg.group(-100, "Uno"), tg.group(-200, "Due")
        sent = await bot.send_message(group.id, "1", reply_markup=keyboard("roll"))
        await bot.edit_message_text("2", group.id, sent.message_id, reply_markup=keyboard("roll"))
        with pytest.raises(RetryAfter) as refusal:
            await bot.send_message(group.id, "3")
        assert 0 < retry_seconds(refusal.value) <= 60
        with pytest.raises(RetryAfter):  # closed until retry_after has passed
            await bot.send_message(group.id, "4")

        await bot.send_message(other.id, "altrove")
        await bot.send_message(private.id, "in privato")
        query_id = tg.press(group, alice, sent.message_id, "roll")
        assert await bot.answer_callback_query(query_id, "ok")  # never limited
        assert await bot.get_chat(group.id)  # not a send nor an edit

        assert tg.limited_requests[group.id] == 2
        assert tg.retry_afters == {group.id: 2}
        assert tg.limited_requests[other.id] == 1
        assert [r.error for r in tg.errors()] == ["Too Many Requests: retry after 60"] * 2


async def test_private_and_global_limits() -> None:
    async with realistic(enforce_limits=True, private_limit=(2, 60.0), global_limit=(3, 60.0)) as (
        tg,
        bot,
    ):
        alice, bruno = tg.user(1001, "Alice"), tg.user(1002, "Bruno")
        chat_a, chat_b = tg.private_chat(alice), tg.private_chat(bruno)
        await bot.send_message(chat_a.id, "1")
        await bot.send_message(chat_a.id, "2")
        with pytest.raises(RetryAfter):
            await bot.send_message(chat_a.id, "3")
        await bot.send_message(chat_b.id, "1")
        with pytest.raises(RetryAfter):  # the bot's fourth send in the window
            await bot.send_message(chat_b.id, "2")
        assert tg.retry_afters == {chat_a.id: 1, chat_b.id: 1}


async def test_limits_are_off_by_default(bot: Bot, tg: FakeTelegram) -> None:
    group = tg.group(-100, "Uno")
    for n in range(25):
        await bot.send_message(group.id, str(n))
    assert tg.limited_requests[group.id] == 25
    assert tg.errors() == []


async def test_injected_retry_after_refuses_the_next_requests_of_one_chat(
    bot: Bot, tg: FakeTelegram, chat: FakeChat
) -> None:
    group = tg.group(-100, "Uno")
    tg.inject_retry_after(group, 0.5, count=2)
    for _ in range(2):
        with pytest.raises(RetryAfter) as refusal:
            await bot.send_message(group.id, "no")
        assert retry_seconds(refusal.value) == 0.5
    await bot.send_message(chat.id, "altrove")
    await bot.send_message(group.id, "sì")
    assert tg.retry_afters == {group.id: 2}
    assert tg.limited_requests == {group.id: 1, chat.id: 1}


async def test_an_injected_retry_after_closes_the_chat_when_limits_are_enforced() -> None:
    async with realistic(enforce_limits=True) as (tg, bot):
        group = tg.group(-100, "Uno")
        tg.inject_retry_after(group.id, 0.3)
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "no")
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "ancora no")
        await asyncio.sleep(0.35)
        await bot.send_message(group.id, "sì")
        assert tg.retry_afters[group.id] == 2


async def test_answers_can_be_too_old(
    bot: Bot, tg: FakeTelegram, chat: FakeChat, alice: FakeUser
) -> None:
    sent = await bot.send_message(chat.id, "Partita", reply_markup=keyboard("roll"))
    in_time = tg.press(chat, alice, sent.message_id, "roll")
    assert await bot.answer_callback_query(in_time)

    tg.answer_max_age = 0
    late = tg.press(chat, alice, sent.message_id, "roll")
    with refused("query is too old"):
        await bot.answer_callback_query(late)

    timings = {t.query_id: t for t in tg.query_timings()}
    assert list(timings) == [in_time, late]
    answered = timings[in_time]
    assert answered.answered_at is not None and answered.answered_at >= answered.pressed_at
    assert answered.chat_id == chat.id and answered.data == "roll"
    assert timings[late].answered_at is None


async def test_counters_and_chat_events(bot: Bot, tg: FakeTelegram, chat: FakeChat) -> None:
    assert not await tg.wait_chat_event(chat, timeout=0.01)
    waiting = asyncio.create_task(tg.wait_chat_event(chat, timeout=5))
    await asyncio.sleep(0)
    sent = await bot.send_photo(chat.id, png("white"))
    assert await waiting
    board = tg.message(chat, sent.message_id)
    first_update = board.updated_at
    assert first_update > 0

    await bot.edit_message_media(InputMediaPhoto(png("black")), chat.id, sent.message_id)
    await bot.send_photo(chat.id, sent.photo[-1].file_id)  # a known file: no upload
    await bot.send_chat_action(chat.id, "typing")
    assert board.updated_at >= first_update and board.edits == 1
    assert tg.limited_requests[chat.id] == 3
    assert tg.photo_uploads[chat.id] == 2
    assert tg.retry_afters[chat.id] == 0
