"""Steps and plays: what a player does with a roll.

A *step* moves one checker by one die. A *play* is the whole turn: the steps in the order
they were made and the position they lead to. Points are always in the mover's own
numbering: 25 is the bar, 0 is off.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import BAR, OFF, Checkers


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die; ``hit`` is True when it sent a blot to the bar."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """A complete legal play: its steps and the resulting checkers (mover, opponent)."""

    steps: tuple[Step, ...]
    mine: Checkers
    theirs: Checkers

    @property
    def key(self) -> tuple[Checkers, Checkers]:
        """Plays are equal when they lead to the same position."""
        return (self.mine, self.theirs)

    @property
    def dice_used(self) -> int:
        return len(self.steps)
