"""The Mini App's live listener stops when asked, even when the client's read swallows the
cancel (a client library may catch it on the way): stopping the bot never waits for ever."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.miniapp.live import LiveHub


class _SwallowingPubSub:
    """A subscription whose read swallows one cancel, then waits for the next message."""

    def __init__(self, client: _Client) -> None:
        self.client = client

    async def subscribe(self, channel: str) -> None:
        self.client.subscribed += 1

    async def listen(self) -> AsyncIterator[dict[str, Any]]:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)
        await asyncio.sleep(30)  # the cancel is gone: only a message would come now
        yield {"data": b"1 1"}

    async def aclose(self) -> None:
        return None


class _Client:
    subscribed = 0

    def pubsub(self, ignore_subscribe_messages: bool) -> _SwallowingPubSub:
        return _SwallowingPubSub(self)


async def test_stopping_returns_even_when_the_read_swallows_the_cancel() -> None:
    client = _Client()
    hub = LiveHub(client, "t")
    hub.watch(1)
    while client.subscribed == 0:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(hub.stop(timeout=0.2), 5.0)


async def test_a_stopped_hub_listens_again_when_a_page_watches() -> None:
    client = _Client()
    hub = LiveHub(client, "t")
    hub.watch(1)
    await asyncio.wait_for(hub.stop(timeout=0.2), 5.0)
    hub.watch(2)
    while client.subscribed < 2:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(hub.stop(timeout=0.2), 5.0)
