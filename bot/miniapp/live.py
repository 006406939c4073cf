"""Telling open pages that a table was saved: a Redis pub/sub message at each commit.

Every commit publishes ``<key> <version>`` on one channel of the bot's key space; every
bot process listens to it once (one subscription per process, not per page) and wakes the
pages it serves for that table. So a page connected to any worker hears of a move saved by
any other, and nothing is kept per page in Redis. A lost message costs nothing but time:
a page also asks again every ``READ_AGAIN_SECONDS`` (``bot.handlers.miniapp_api``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: How long the listener waits before subscribing again after losing Redis.
RESUBSCRIBE_SECONDS = 1.0
#: How long stopping waits for the listener to end before leaving it behind.
STOP_SECONDS = 2.0


class Watch:
    """One open page's wake-up: the newest version heard of (older ones are dropped)."""

    def __init__(self) -> None:
        self.version = 0
        self._event = asyncio.Event()

    def wake(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self._event.set()

    async def wait(self, timeout: float) -> int:
        """The newest version heard of once one comes (or the last one on a timeout)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._event.wait()
        self._event.clear()
        return self.version


class LiveHub:
    """The process's subscription to the commits of every table, and the pages watching."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.channel = f"{prefix}:live"
        self._watches: dict[int, set[Watch]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.published = 0

    async def publish(self, key: int, version: int) -> None:
        """Tell every process that ``key``'s table is saved at ``version`` (best effort)."""
        self.published += 1
        self._deliver(key, version)  # this process's pages need no round trip
        try:
            await self.client.publish(self.channel, f"{key} {version}")
        except (RedisError, OSError, AttributeError) as exc:
            log.info("cannot publish the commit of table %s: %s", key, exc)

    def watch(self, key: int) -> Watch:
        self._ensure_listening()
        watch = Watch()
        self._watches[key].add(watch)
        return watch

    def unwatch(self, key: int, watch: Watch) -> None:
        watches = self._watches.get(key)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[key]

    def _deliver(self, key: int, version: int) -> None:
        for watch in self._watches.get(key, ()):
            watch.wake(version)

    def _ensure_listening(self) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self._listen(), name="miniapp live listener")

    async def _listen(self) -> None:
        while not self._stopping:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            except AttributeError:  # a client without pub/sub: this process's commits only
                log.warning("storage has no pub/sub: pages hear of this worker's moves only")
                return
            try:
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if self._stopping:
                        return
                    self._on_message(message)
            except (RedisError, OSError) as exc:
                if self._stopping:
                    return
                log.info("live listener lost Redis (%s); subscribing again", exc)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _on_message(self, message: dict[str, Any]) -> None:
        data = message.get("data")
        if isinstance(data, bytes):
            data = data.decode()
        try:
            key, version = (int(x) for x in str(data).split())
        except ValueError:
            return
        self._deliver(key, version)

    async def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Stop listening, waiting a bounded time: a cancel that lands inside the client's
        read can be swallowed there, and awaiting the task would then wait for ever (the
        listener also ends by itself at its next message or error)."""
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            task.cancel()
            _, still = await asyncio.wait({task}, timeout=timeout)
            if still:
                log.warning("the live listener did not stop in time; left behind")
