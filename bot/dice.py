"""Where dice come from. Production dice are drawn with ``secrets`` on the server; the
tests replace the source (``bot_data["dice"]``) with a scripted one to replay games."""

from __future__ import annotations

import secrets
from typing import Protocol


class DiceSource(Protocol):
    def roll(self) -> tuple[int, int]:
        """Two dice for a turn."""
        ...

    def die(self) -> int:
        """One die (the opening roll is one die per player)."""
        ...


class SecureDice:
    """Fair dice from the operating system's CSPRNG: never from the client."""

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()

    def die(self) -> int:
        return secrets.randbelow(6) + 1
