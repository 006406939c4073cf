"""The timer poller stops when asked, even when a cancel is lost inside a storage call
(a library may catch it on the way): stopping the bot must never wait for ever."""

from __future__ import annotations

import asyncio
import contextlib
from types import SimpleNamespace
from typing import Any

from bot.timeouts import TimerPoller


class _SwallowingPoller(TimerPoller):
    """A poller whose poll swallows a cancel, as a call deep in a client library may."""

    polls = 0

    async def poll(self) -> int:
        self.polls += 1
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)
        return 0


async def test_stopping_ends_the_poller_even_when_a_poll_swallows_the_cancel() -> None:
    app: Any = SimpleNamespace(running=True)
    poller = _SwallowingPoller(app, interval=0.05)
    poller.start()
    while poller.polls == 0:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(poller.stop(timeout=0.2), 5.0)
    polls = poller.polls
    await asyncio.sleep(0.3)
    assert poller.polls == polls  # it polls no more


async def test_a_stopped_poller_starts_again() -> None:
    app: Any = SimpleNamespace(running=True)
    poller = _SwallowingPoller(app, interval=0.05)
    poller.start()
    await asyncio.wait_for(poller.stop(timeout=0.2), 5.0)
    polls = poller.polls
    poller.start()
    while poller.polls == polls:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(poller.stop(timeout=0.2), 5.0)
