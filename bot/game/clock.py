"""The turn clock as a save sees it: what a save does to the deadline of the turn.

Saving a move (the pipeline) changes the clock; the timers (``bot.timeouts``) then follow,
through the :class:`~bot.services.ClockFollower` the application hands over on
``Services``, so that saving never imports the timers that save.
"""

from __future__ import annotations

from enum import Enum


class Clock(Enum):
    """What a save does to the turn clock."""

    KEEP = "keep"  # the same person still has to finish the same turn
    NEW = "new"  # somebody else must act now: a fresh deadline
    STOP = "stop"  # nobody is on the clock (game over, the computer's turn, no limit)
