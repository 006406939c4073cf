"""Bot API requests leave in two writes: a board upload's multipart body is read whole
before it is sent (``bot.adapters.request_body``), a big upload keeps streaming, and what
is sent is byte for byte what httpx would have streamed."""

from __future__ import annotations

import httpx
from aiohttp import web
from telegram import Bot, InputMediaPhoto

from bot.adapters.request_body import WHOLE_BODY_LIMIT, send_body_whole
from bot.app import bot_request

PICTURE = bytes(range(256)) * 600  # about 150 KB, a board's size


def upload(data: bytes) -> httpx.Request:
    return httpx.Request(
        "POST",
        "http://127.0.0.1/bot123:ABC/editMessageMedia",
        data={"chat_id": "-1001", "message_id": "7", "media": '{"type": "photo"}'},
        files={"attached": ("board.png", data, "image/png")},
    )


async def parts(request: httpx.Request) -> list[bytes]:
    assert isinstance(request.stream, httpx.AsyncByteStream)
    return [part async for part in request.stream]


async def test_a_board_upload_is_sent_as_one_piece() -> None:
    request = upload(PICTURE)
    streamed = await parts(request)
    assert len(streamed) > 3  # httpx's own way: piece by piece
    await send_body_whole(request)
    assert await parts(request) == [b"".join(streamed)]
    assert int(request.headers["content-length"]) == len(b"".join(streamed))


async def test_a_big_upload_keeps_streaming() -> None:
    request = upload(b"\0" * (WHOLE_BODY_LIMIT + 1))
    await send_body_whole(request)
    assert len(await parts(request)) > 1


async def test_the_bots_client_delivers_a_board_upload_intact(unused_tcp_port: int) -> None:
    """Through PTB and the bot's own client (``bot.app.bot_request``), to a real server."""
    received: list[tuple[str, bytes]] = []

    async def get_me(_: web.Request) -> web.Response:
        me = {"id": 123, "is_bot": True, "first_name": "Tavola", "username": "tavola_bot"}
        return web.json_response({"ok": True, "result": me})

    async def edit_media(http_request: web.Request) -> web.Response:
        form = await http_request.post()
        attached = next(v for v in form.values() if isinstance(v, web.FileField))
        received.append((str(form["chat_id"]), attached.file.read()))
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_post("/bot123:ABC/getMe", get_me)
    app.router.add_post("/bot123:ABC/editMessageMedia", edit_media)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    bot = Bot("123:ABC", base_url=f"http://127.0.0.1:{unused_tcp_port}/bot", request=bot_request())
    try:
        async with bot:
            done = await bot.edit_message_media(
                InputMediaPhoto(PICTURE), chat_id=-1001, message_id=7
            )
    finally:
        await runner.cleanup()
    assert done is True
    assert received == [("-1001", PICTURE)]
