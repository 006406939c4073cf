"""The bot's HTTP client keeps few idle connections after a burst (each is checked on every
request), and still serves a burst wider than that."""

from __future__ import annotations

import asyncio
import json

from telegram.request import RequestData

from bot.app import REQUEST_KEEPALIVE, bot_request

BURST = 3 * REQUEST_KEEPALIVE


class CountingServer:
    """A tiny HTTP/1.1 keep-alive server answering every request with a Bot API ``ok`` after
    ``delay`` seconds; it knows how many connections are open."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.open = 0
        self.most_open = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.decode("latin-1").split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                await reader.readexactly(length)
                await asyncio.sleep(self.delay)
                body = json.dumps({"ok": True, "result": True}).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.open -= 1
            writer.close()


async def test_a_burst_leaves_at_most_the_kept_idle_connections_open() -> None:
    server = CountingServer(delay=0.3)
    url = await server.start()
    request = bot_request()
    await request.initialize()
    try:
        answers = await asyncio.gather(
            *(request.post(f"{url}/botTOKEN/sendMessage", RequestData()) for _ in range(BURST))
        )
        assert answers == [True] * BURST
        assert server.most_open > REQUEST_KEEPALIVE  # the burst was served side by side
        # The pool closes the connections beyond the kept ones as their requests end.
        await asyncio.sleep(0.2)
        assert server.open <= REQUEST_KEEPALIVE
        # The kept ones serve the next requests.
        assert await request.post(f"{url}/botTOKEN/sendMessage", RequestData()) is True
    finally:
        await request.shutdown()
        await server.stop()
