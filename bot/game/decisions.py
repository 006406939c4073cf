"""What the computer is asked and what it answers, as plain values.

The rules of the table (``bot.game.flow``) put the question (of the engine's one kind of
decision, ``engine.DecisionKind``) and apply the answer; the process pool
(``bot.computer``) only carries them to a worker and back. Keeping the values
here lets the pure rules speak of decisions without importing the pool.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import DecisionKind, Play


@dataclass(frozen=True, slots=True)
class ResignQuestion:
    """An offer to resign put to the computer: who offers, and the cubeless points."""

    resigner: int  # the resigner's Side (0 White, 1 Black)
    points: int


@dataclass(frozen=True, slots=True)
class Decision:
    """What the computer decided: a play for MOVE, a yes/no for the cube questions."""

    kind: DecisionKind
    play: Play | None = None
    yes: bool = False
