"""Steps and plays: what a player does with a roll.

A *step* moves one checker by one die. A *play* is the whole turn: the steps in the order
they were made and the position they lead to. Points are always in the mover's own
numbering: 25 is the bar, 0 is off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass
from typing import Protocol

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


class Play:
    """A complete legal play: its steps and the resulting checkers (mover, opponent).

    Immutable, compared and hashed by value like a frozen dataclass of those three fields.
    A play made by the move generator is *lazy*: it keeps a reference to the search that
    found it and builds its checker tuples, and separately its steps, on first access.
    Most plays of a roll are never read in full (the bot needs their number and the legal
    steps; the computer reads the positions and the steps of the one it picks), and
    building them was most of the cost of generating the plays.
    """

    __slots__ = ("_found", "_key", "_mine", "_steps", "_theirs")

    # A lazy play has only ``_found`` and ``_key`` set until it is read.
    _steps: tuple[Step, ...]
    _mine: Checkers
    _theirs: Checkers
    _found: Found
    _key: int

    def __init__(self, steps: tuple[Step, ...], mine: Checkers, theirs: Checkers) -> None:
        _set_steps(self, steps)
        _set_mine(self, mine)
        _set_theirs(self, theirs)

    @classmethod
    def _lazy_list(cls, found: Found, keys: list[int]) -> list[Play]:
        """The plays a search found, in order: ``found`` turns each key into steps and
        checkers on first access. Made in one loop (a roll's plays are made at once, and a
        call per play was a visible part of the bot's per-roll cost)."""
        plays: list[Play] = []
        append = plays.append
        for key in keys:
            play = _new(cls)
            _set_found(play, found)
            _set_key(play, key)
            append(play)
        return plays

    @property
    def steps(self) -> tuple[Step, ...]:
        try:
            return self._steps
        except AttributeError:
            steps = self._found.steps(self._key)
            _set_steps(self, steps)
            return steps

    @property
    def mine(self) -> Checkers:
        try:
            return self._mine
        except AttributeError:
            mine, theirs = self._found.checkers(self._key)
            _set_mine(self, mine)
            _set_theirs(self, theirs)
            return mine

    @property
    def theirs(self) -> Checkers:
        try:
            return self._theirs
        except AttributeError:
            self.mine  # noqa: B018 - fills both
            return self._theirs

    @property
    def key(self) -> tuple[Checkers, Checkers]:
        """Plays are equal when they lead to the same position."""
        return (self.mine, self.theirs)

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    def _fields(self) -> tuple[tuple[Step, ...], Checkers, Checkers]:
        return (self.steps, self.mine, self.theirs)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Play(steps={self.steps!r}, mine={self.mine!r}, theirs={self.theirs!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[tuple[Step, ...], Checkers, Checkers]]:
        # Pickle the values, never the search behind a lazy play.
        return (Play, self._fields())


# The slots' own setters: Play is frozen, so its ``__setattr__`` refuses every assignment.
# The slot descriptors are read from the class namespace (typed ``Any`` there: mypy sees
# the annotated slots as instance attributes only) and given their setter's signature.
_set_steps: Callable[[Play, tuple[Step, ...]], None] = Play.__dict__["_steps"].__set__
_set_mine: Callable[[Play, Checkers], None] = Play.__dict__["_mine"].__set__
_set_theirs: Callable[[Play, Checkers], None] = Play.__dict__["_theirs"].__set__
_set_found: Callable[[Play, Found], None] = Play.__dict__["_found"].__set__
_set_key: Callable[[Play, int], None] = Play.__dict__["_key"].__set__
_new = object.__new__


class Found(Protocol):
    """What a lazy :class:`Play` asks the search that found it (see engine.movegen)."""

    def steps(self, key: int) -> tuple[Step, ...]: ...

    def checkers(self, key: int) -> tuple[Checkers, Checkers]: ...
