"""The turn clock as a save sees it, and the seam through which its timers follow.

Saving a move (the pipeline) changes the clock; the timers (``bot.timeouts``) then follow,
and a timer that fires saves through the pipeline. So that saving never imports the timers,
the pipeline calls whatever :class:`ClockFollower` the application handed over on
``Services``: timeouts imports the pipeline, never the reverse.
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from bot.ptb_types import BotApp
from bot.table import Table
from storage import StoredGame


class Clock(Enum):
    """What a save does to the turn clock."""

    KEEP = "keep"  # the same person still has to finish the same turn
    NEW = "new"  # somebody else must act now: a fresh deadline
    STOP = "stop"  # nobody is on the clock (game over, the computer's turn, no limit)


class ClockFollower(Protocol):
    """Makes a chat's timers match a committed save: the save wrote the deadline (``due_at``
    when ``clock`` is NEW); the follower sets or clears what goes with it. It must not
    wait: it runs right after a commit, before the board is shown."""

    def __call__(
        self, app: BotApp, game: StoredGame, table: Table, clock: Clock, due_at: float | None
    ) -> None: ...
