"""The bot's HTTP client keeps few idle connections: a burst opens as many as it needs at once
(no pool timeout), and all but ``KEEPALIVE_CONNECTIONS`` close when it is over instead of
holding sockets open at both ends until their keep-alive runs out."""

from __future__ import annotations

import asyncio

from bot.app import KEEPALIVE_CONNECTIONS, bot_request

ANSWER = b'{"ok":true,"result":true}'
BURST = 3 * KEEPALIVE_CONNECTIONS


async def test_after_a_burst_at_most_the_keepalive_connections_stay_open() -> None:
    open_connections: set[asyncio.StreamWriter] = set()
    release = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A keep-alive HTTP/1.1 server holding every answer until the burst is all in."""
        open_connections.add(writer)
        try:
            while (head := await reader.readuntil(b"\r\n\r\n")) is not None:
                length = next(
                    (
                        int(line.split(b":", 1)[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                await reader.readexactly(length)
                if len(open_connections) >= BURST:
                    release.set()
                await release.wait()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(ANSWER), ANSWER)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            open_connections.discard(writer)
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    request = bot_request()
    await request.initialize()
    try:
        url = f"http://127.0.0.1:{port}/botTOKEN/answerCallbackQuery"
        results = await asyncio.gather(*(request.post(url) for _ in range(BURST)))
        assert results == [True] * BURST  # the burst needed that many connections at once
        for _ in range(100):  # the server sees the closed ones go
            if len(open_connections) <= KEEPALIVE_CONNECTIONS:
                break
            await asyncio.sleep(0.02)
        assert len(open_connections) <= KEEPALIVE_CONNECTIONS
    finally:
        await request.shutdown()
        server.close()
        await server.wait_closed()
