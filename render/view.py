"""The renderer's input: a plain, frozen picture of one moment of a game.

The renderer must not depend on the engine (they are written side by side and the
arrow ``render -> engine`` is optional), so the bot translates the engine's state into
this small value type. It carries only what the picture shows; it computes no rules.

Checker representation (the same as the engine's): for each side a tuple of 26 ints in
that side's OWN numbering:

* index 0: checkers borne off;
* indexes 1..24: points 1..24 as that player numbers them (1..6 is their home, they
  move from high numbers to low);
* index 25: checkers on the bar (classic only; always 0 in long).

How one side's numbering maps onto the other's:

* classic: Black's point ``q`` is White's point ``25 - q``;
* long: Black's point ``q`` is White's point ``((q + 11) % 24) + 1`` (so Black's head,
  their 24, is White's 12). The same formula maps White's points to Black's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Side = Literal["white", "black"]
Variant = Literal["classic", "long"]

SIDES: tuple[Side, Side] = ("white", "black")
VARIANTS: tuple[Variant, Variant] = ("classic", "long")
CHECKERS_PER_SIDE = 15
BAR = 25
OFF = 0


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "black" if side == "white" else "white"


def convert_point(point: int, variant: Variant) -> int:
    """Map a point (1..24) from one side's numbering to the other's.

    Both mappings are involutions, so the same function converts White to Black and
    Black to White.
    """
    if not 1 <= point <= 24:
        raise ValueError(f"point out of range: {point}")
    if variant == "classic":
        return 25 - point
    return ((point + 11) % 24) + 1


@dataclass(frozen=True)
class LastStep:
    """One step of the last play: a checker of ``side`` went from ``src`` to ``dst``.

    ``src`` and ``dst`` use ``side``'s own numbering; 25 is the bar and 0 is off the
    board. ``hit`` tells that an opposing blot was sent to the bar by this step.
    """

    side: Side
    src: int
    dst: int
    hit: bool = False

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"unknown side: {self.side!r}")
        if not 1 <= self.src <= BAR:
            raise ValueError(f"step source out of range: {self.src}")
        if not OFF <= self.dst <= 24:
            raise ValueError(f"step destination out of range: {self.dst}")


@dataclass(frozen=True)
class Arrow:
    """One step of a suggested play, drawn as an arrow labelled ``label`` (e.g. "1"); with
    ``made``, a step of the play made instead, drawn thinner in the hit colour.

    ``src`` and ``dst`` use ``side``'s own numbering, as in ``LastStep``.
    """

    side: Side
    src: int
    dst: int
    label: str = ""
    made: bool = False  # a step of the play made (drawn apart from the suggested play's)

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"unknown side: {self.side!r}")
        if not 1 <= self.src <= BAR or not OFF <= self.dst <= 24:
            raise ValueError(f"arrow out of range: {self.src}/{self.dst}")


@dataclass(frozen=True)
class Die:
    """One die of the current roll; ``used`` dice are drawn dimmed."""

    value: int
    used: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ValueError(f"die value out of range: {self.value}")


def _start(variant: Variant) -> tuple[int, ...]:
    counts = [0] * 26
    if variant == "classic":
        counts[24], counts[13], counts[8], counts[6] = 2, 5, 3, 5
    else:
        counts[24] = CHECKERS_PER_SIDE
    return tuple(counts)


@dataclass(frozen=True)
class BoardView:
    """Everything the board picture shows.

    Fields:
        variant: "classic" or "long".
        white, black: 26 counts each, in the side's own numbering (see module doc).
        turn: the side on turn, or None when the game is over (no dice are drawn then).
        perspective: whose numbering the point labels show; the bot passes the player
            on turn, so the labels match the notation they type.
        dice: the current roll as ``Die`` entries (up to four for a double), empty
            before the roll. Plain ``(value, used)`` pairs are accepted and converted.
        cube_value: the doubling cube's value; None means no cube (always in long).
            While a double is offered it is the value on offer.
        cube_owner: who owns the cube, None when it is centred.
        cube_offered_by: the side offering a double now; the cube is drawn in that
            side's half of the board, showing the value on offer.
        cube_active: False greys the cube out: it cannot be turned in this game (the
            Crawford game, a game without cube).
        names: (white's name, black's name).
        pips: (white's pip count, black's); None hides the counts.
        score: (white's points, black's points) in the match or series.
        match_length: points needed to win the match or series; 0 means unlimited.
        crawford: this game is the Crawford game (classic matches).
        last_play: the steps of the last play, highlighted on the board.
        status: an optional Italian status line, e.g. "Tocca al Bianco".
        banner: lines drawn across the middle of the board, e.g. the result of a finished
            game ("Marco vince 2 punti · gammon", then the score); empty for none.
        arrows: the steps of a suggested play, drawn as numbered arrows over the board
            (a hint); empty for none.
    """

    variant: Variant = "classic"
    white: tuple[int, ...] = field(default_factory=lambda: _start("classic"))
    black: tuple[int, ...] = field(default_factory=lambda: _start("classic"))
    turn: Side | None = "white"
    perspective: Side = "white"
    dice: tuple[Die, ...] = ()
    cube_value: int | None = None
    cube_owner: Side | None = None
    cube_offered_by: Side | None = None
    cube_active: bool = True
    names: tuple[str, str] = ("Bianco", "Nero")
    pips: tuple[int, int] | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    last_play: tuple[LastStep, ...] = ()
    status: str = ""
    banner: tuple[str, ...] = ()
    arrows: tuple[Arrow, ...] = ()

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant: {self.variant!r}")
        for side in SIDES:
            counts = tuple(getattr(self, side))
            if len(counts) != 26 or any(c < 0 for c in counts):
                raise ValueError(f"{side}: expected 26 non-negative counts")
            if sum(counts) != CHECKERS_PER_SIDE:
                raise ValueError(f"{side}: expected {CHECKERS_PER_SIDE} checkers")
            if self.variant == "long" and counts[BAR]:
                raise ValueError(f"{side}: long has no bar")
            object.__setattr__(self, side, counts)
        if self.turn is not None and self.turn not in SIDES:
            raise ValueError(f"unknown turn: {self.turn!r}")
        if self.perspective not in SIDES:
            raise ValueError(f"unknown perspective: {self.perspective!r}")
        if self.cube_owner is not None and self.cube_owner not in SIDES:
            raise ValueError(f"unknown cube owner: {self.cube_owner!r}")
        if self.cube_offered_by is not None and self.cube_offered_by not in SIDES:
            raise ValueError(f"unknown doubler: {self.cube_offered_by!r}")
        dice = tuple(d if isinstance(d, Die) else Die(*d) for d in self.dice)
        if len(dice) > 4:
            raise ValueError("at most four dice")
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "last_play", tuple(self.last_play))
        object.__setattr__(self, "banner", tuple(self.banner))
        object.__setattr__(self, "arrows", tuple(self.arrows))

    @classmethod
    def start(cls, variant: Variant = "classic", **kwargs: object) -> BoardView:
        """The starting position of ``variant``; other fields from ``kwargs``."""
        return cls(
            variant=variant,
            white=_start(variant),
            black=_start(variant),
            **kwargs,  # type: ignore[arg-type]
        )

    def counts(self, side: Side) -> tuple[int, ...]:
        """The 26 counts of ``side`` in its own numbering."""
        return self.white if side == "white" else self.black


def pip_count(counts: tuple[int, ...]) -> int:
    """Pips a side still has to travel: each checker's point number (bar counts 25).

    Offered so tests, the gallery and the benchmark can fill ``BoardView.pips`` without
    the engine; the bot should use the engine's own count.
    """
    return sum(point * n for point, n in enumerate(counts))
