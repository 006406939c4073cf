"""The bot's Bot API client on aiohttp (``bot.adapters.aiohttp_request``), through PTB and the
fake Bot API server over real HTTP: uploads and edits arrive intact, getUpdates waits its
long poll, and every failure reaches PTB's callers as ``HTTPXRequest`` raised it (timeouts,
the pool's wait included, as ``TimedOut``; a refused connection as ``NetworkError``; a 429 as
``RetryAfter``). The multipart body is byte for byte what httpx would have sent."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from PIL import Image
from telegram import InputFile, InputMediaPhoto
from telegram.error import NetworkError, RetryAfter, TimedOut
from telegram.ext import ExtBot
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.adapters.aiohttp_request import AiohttpRequest, multipart_body
from bot.app import bot_request
from bot.reach import WatchingRequest
from tests.e2e.fake_telegram import FakeTelegram
from tests.ports import free_port


def png(color: str, size: tuple[int, int] = (64, 48)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[ExtBot[None]]:
    """An ExtBot with the bot's two clients, as ``bot.app`` builds them."""
    client = ExtBot(
        tg.token,
        base_url=tg.base_url,
        request=bot_request(),
        get_updates_request=WatchingRequest(connection_pool_size=1),
    )
    await client.initialize()
    yield client
    await client.shutdown()


async def test_uploads_edits_and_forms_arrive_intact(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    chat = tg.private_chat(tg.user(1, "Alice"))
    board, next_board = png("green", (400, 300)), png("red", (400, 300))

    sent = await bot.send_photo(chat.id, board, caption="<b>Turno</b> di Alice", parse_mode="HTML")
    assert tg.message(chat, sent.message_id).photo == board
    assert tg.message(chat, sent.message_id).caption == "Turno di Alice"

    await bot.edit_message_media(
        InputMediaPhoto(next_board, caption="Tocca a Bob & co. = 100% è"),
        chat_id=chat.id,
        message_id=sent.message_id,
    )
    edited = tg.message(chat, sent.message_id)
    assert edited.photo == next_board
    assert edited.caption == "Tocca a Bob & co. = 100% è"

    name = "partita 1 è\\.sgf"  # a backslash, a letter beyond ASCII
    document = await bot.send_document(chat.id, b"(;GM[6])", filename=name)
    assert tg.message(chat, document.message_id).document == b"(;GM[6])"
    assert document.document is not None and document.document.file_name == name

    text = "a+b=c & d?e=f #1 100% perché"  # a url-encoded form's special characters
    message = await bot.send_message(chat.id, text)
    assert tg.message(chat, message.message_id).text == text


def test_the_multipart_body_is_what_httpx_sends() -> None:
    fields = {"chat_id": "-1001", "caption": 'Turno "1"\n\\ è', "media": '{"type": "photo"}'}
    files = {"attached": ('board "1"\r.png', png("blue"), "image/png")}
    body, content_type = multipart_body(fields, files, boundary=b"0123abcd")
    httpx_request = httpx.Request(
        "POST",
        "http://127.0.0.1/bot123:ABC/editMessageMedia",
        data=fields,
        files=files,
        headers={"Content-Type": "multipart/form-data; boundary=0123abcd"},
    )
    assert body == httpx_request.read()
    assert content_type == "multipart/form-data; boundary=0123abcd"


def test_a_file_handle_is_sent_as_its_content() -> None:
    """PTB may hand a file over as an open file (``RequestData.multipart_data``)."""
    content = png("blue")
    as_bytes = multipart_body({}, {"document": ("a.png", content, "image/png")}, b"b")
    as_file = multipart_body({}, {"document": ("a.png", io.BytesIO(content), "image/png")}, b"b")
    assert as_file == as_bytes


async def test_get_updates_waits_its_long_poll_beyond_the_read_timeout(
    tg: FakeTelegram,
) -> None:
    """PTB adds the poll's ``timeout`` to the client's read timeout (its ``read_timeout``)."""
    client = ExtBot(
        tg.token,
        base_url=tg.base_url,
        get_updates_request=AiohttpRequest(connection_pool_size=1, read_timeout=0.3),
    )
    chat = tg.private_chat(tg.user(1, "Alice"))
    async with client:
        started = time.monotonic()
        assert await client.get_updates(timeout=1) == ()
        assert time.monotonic() - started >= 0.9

        poll = asyncio.create_task(client.get_updates(timeout=5))
        await asyncio.sleep(0.2)
        tg.send_message(chat, tg.user(1, "Alice"), "ciao")
        updates = await asyncio.wait_for(poll, 2)
    assert [u.message.text for u in updates if u.message] == ["ciao"]


async def test_an_answer_later_than_the_read_timeout_is_timed_out(tg: FakeTelegram) -> None:
    chat = tg.private_chat(tg.user(1, "Alice"))
    tg.delay_reply("sendMessage", 1.0)
    async with ExtBot(
        tg.token, base_url=tg.base_url, request=AiohttpRequest(read_timeout=0.2)
    ) as client:
        with pytest.raises(TimedOut):
            await client.send_message(chat.id, "ciao")
        assert tg.last_bot_message(chat).text == "ciao"  # it took effect all the same
        sent = await client.send_message(chat.id, "di nuovo")  # the client goes on
        assert sent.text == "di nuovo"


async def test_a_full_pool_is_timed_out_and_the_request_not_sent(tg: FakeTelegram) -> None:
    chat = tg.private_chat(tg.user(1, "Alice"))
    tg.delay_reply("sendMessage", 0.6)
    request = AiohttpRequest(connection_pool_size=1, pool_timeout=0.1)
    async with ExtBot(tg.token, base_url=tg.base_url, request=request) as client:
        first = asyncio.create_task(client.send_message(chat.id, "primo"))
        await asyncio.sleep(0.1)
        with pytest.raises(TimedOut, match="Pool timeout"):
            await client.send_message(chat.id, "secondo")
        assert (await first).text == "primo"
    assert [m.text for m in tg.chat_messages(chat)] == ["primo"]


async def test_a_refused_connection_is_a_network_error() -> None:
    port = free_port()  # nobody listens there
    async with AiohttpRequest() as request:
        with pytest.raises(NetworkError) as raised:
            await request.post(f"http://127.0.0.1:{port}/bot123:ABC/getMe")
    assert not isinstance(raised.value, TimedOut)
    assert "aiohttp.ClientConnectorError" in str(raised.value)


async def test_a_429_reaches_ptb_as_retry_after(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    chat = tg.private_chat(tg.user(1, "Alice"))
    tg.inject_retry_after(chat, 3)
    with pytest.raises(RetryAfter) as raised:
        await bot.send_message(chat.id, "ciao")
    assert raised.value.retry_after == 3
    assert (await bot.send_message(chat.id, "ciao")).text == "ciao"


async def test_a_request_needs_an_initialized_client_and_one_shut_down_starts_again(
    tg: FakeTelegram,
) -> None:
    request = AiohttpRequest()
    url = f"{tg.base_url}{tg.token}/getMe"
    with pytest.raises(NetworkError, match="not initialized"):  # as HTTPXRequest's
        await request.post(url)
    for _ in range(2):
        async with request:
            assert isinstance(await request.post(url), dict)
        with pytest.raises(NetworkError, match="not initialized"):
            await request.post(url)


async def test_an_upload_the_server_does_not_take_is_timed_out() -> None:
    """aiohttp has no timeout per write: the whole exchange is bounded instead (connect +
    write + read), so a body stuck in a full socket still fails in time."""
    accepted: list[asyncio.StreamWriter] = []

    async def never_read(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # holds the connection open, reads nothing

    server = await asyncio.start_server(never_read, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    upload = InputFile(b"\0" * (64 << 20), filename="replay.gif", attach=False)
    data = RequestData([RequestParameter.from_input("animation", upload)])
    request = AiohttpRequest(connect_timeout=0.5, read_timeout=0.5, media_write_timeout=0.5)
    try:
        async with request:
            started = time.monotonic()
            with pytest.raises(TimedOut):
                await request.post(f"http://127.0.0.1:{port}/bot123:ABC/sendAnimation", data)
            assert time.monotonic() - started < 5
    finally:
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_the_environments_proxy_carries_the_requests(
    tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As httpx did: ``HTTP_PROXY`` / ``HTTPS_PROXY`` from the environment (here the fake
    itself plays the proxy, receiving the request for a host that does not exist)."""
    for name in ("NO_PROXY", "no_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://{tg.host}:{tg.port}")
    async with AiohttpRequest() as request:
        me = await request.post(f"http://api.telegram.invalid/bot{tg.token}/getMe")
    assert isinstance(me, dict) and me["is_bot"] is True
