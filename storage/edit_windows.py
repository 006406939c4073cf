"""At most one edit of a message per period, agreed by every worker of the bot.

A message edited often by several quick taps (a challenge card's settings) may be edited by
whichever worker gets each tap. Two keys per message, both in the message's place slot:

- the *window*, set with ``SET NX PX period`` by the worker that edits now: while it exists,
  nobody else edits;
- the *plan*, set with ``SET NX`` by the first worker that finds the window taken: it
  edits once the window ends (showing the state as stored then), and every other tap
  meanwhile, in any worker, leaves the edit to it.

The plan expires on its own a period after the window would, so a worker that dies holding
it delays the next edit by at most one period; nothing is ever left locked.
"""

from __future__ import annotations

from storage.connect import Client
from storage.keys import Keys


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class EditWindows:
    """The shared edit periods of messages, in Redis (one instance per worker)."""

    def __init__(self, client: Client, keys: Keys) -> None:
        self.client = client
        self.keys = keys

    async def claim(self, chat_id: int, message_id: int, period: float) -> bool:
        """Open the message's edit period now, when none runs: True if this caller may edit."""
        key = self.keys.edit_window(chat_id, message_id)
        return bool(await self.client.set(key, b"1", nx=True, px=_ms(period)))

    async def plan(self, chat_id: int, message_id: int, period: float) -> float | None:
        """Take the edit due at the end of the running period: the seconds until it ends
        (0 when it has just ended: claim again), or None when another caller holds it."""
        left = await self.client.pttl(self.keys.edit_window(chat_id, message_id))
        if left <= 0:
            return 0.0
        key = self.keys.edit_planned(chat_id, message_id)
        if not await self.client.set(key, b"1", nx=True, px=int(left) + _ms(period)):
            return None
        return int(left) / 1000

    async def remaining(self, chat_id: int, message_id: int) -> float:
        """Seconds left in the message's running period (0 when none runs)."""
        left = await self.client.pttl(self.keys.edit_window(chat_id, message_id))
        return max(0, int(left)) / 1000

    async def unplan(self, chat_id: int, message_id: int) -> None:
        """The planned edit is going out (or given up): the next tap may plan another."""
        await self.client.delete(self.keys.edit_planned(chat_id, message_id))
