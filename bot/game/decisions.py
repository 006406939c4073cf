"""What the computer is asked and what it answers, as plain values.

The rules of the table (``bot.game.flow``) put the question and apply the answer; the
process pool (``bot.computer``) only carries them to a worker and back. Keeping the values
here lets the pure rules speak of decisions without importing the pool.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine import Play


class DecisionKind(StrEnum):
    PLAY = "play"  # which play for the roll (Phase.MOVE)
    DOUBLE = "double"  # double before rolling? (Phase.ROLL)
    TAKE = "take"  # take the double offered? (Phase.DOUBLED)
    RESIGN = "resign"  # accept the opponent's offer to resign? (any phase of a game)


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
