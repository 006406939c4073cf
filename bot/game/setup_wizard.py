"""The set-up of a game against the computer, as a typed state machine.

/gioca asks, one message edited in place: the variant, the level, the match's length (in
classic also the money game, length 0, then its Jacoby rule), and for the long game its
scoring and last roll; « Indietro returns to the previous question.
Every page's buttons carry the whole set-up so far (``p:<variant>:<level>:<length>[:<long
or money options>[:go]]``, ``p:_`` for the first question), so the set-up is stored nowhere and a
button pressed twice asks the same thing twice. `parse` reads only what `Setup.codes`
writes: forged data is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine import MatchConfig, Variant
from engine.ai import Level

LENGTHS = (1, 3, 5, 7)
#: The lengths classic offers: the money game (0) first.
CLASSIC_LENGTHS = (0, *LENGTHS)
FIRST = "_"  # ``p:_``: the first question, reached back from the second
START = "go"


class BadSetupError(ValueError):
    """Set-up data that no page of ours carries."""


class Question(Enum):
    VARIANT = "variant"
    LEVEL = "level"
    LENGTH = "length"
    LONG_OPTIONS = "long options"  # scoring and last roll, then the start
    MONEY_OPTIONS = "money options"  # classic money game: the Jacoby rule, then the start


@dataclass(frozen=True, slots=True)
class LongOptions:
    """The long game's scoring (Mars counts 2, or Oin) and last roll, as ``m0``..``o1``."""

    mars: bool = True
    last_roll: bool = False

    @property
    def code(self) -> str:
        return ("m" if self.mars else "o") + ("1" if self.last_roll else "0")

    @classmethod
    def of_code(cls, code: str) -> LongOptions:
        if len(code) != 2 or code[0] not in "mo" or code[1] not in "01":
            raise BadSetupError(f"not long options: {code!r}")
        return cls(code[0] == "m", code[1] == "1")


@dataclass(frozen=True, slots=True)
class MoneyOptions:
    """The money game's Jacoby rule (on by default, as the table's rules say), ``j1``/``j0``."""

    jacoby: bool = True

    @property
    def code(self) -> str:
        return "j1" if self.jacoby else "j0"

    @classmethod
    def of_code(cls, code: str) -> MoneyOptions:
        if code not in ("j0", "j1"):
            raise BadSetupError(f"not money options: {code!r}")
        return cls(code == "j1")


@dataclass(frozen=True, slots=True)
class Setup:
    """The choices so far; `question` says what comes next (None: the game starts)."""

    variant: Variant | None = None
    level: Level | None = None
    length: int | None = None
    long_options: LongOptions | None = None
    start: bool = False
    money_options: MoneyOptions | None = None

    @property
    def question(self) -> Question | None:
        if self.variant is None:
            return Question.VARIANT
        if self.level is None:
            return Question.LEVEL
        if self.length is None:
            return Question.LENGTH
        if self.variant is Variant.LONG and not self.start:
            return Question.LONG_OPTIONS
        if self.length == 0 and not self.start:
            return Question.MONEY_OPTIONS
        return None

    @property
    def options(self) -> LongOptions:
        """The long options in force (chosen, or the defaults the page shows first)."""
        return self.long_options or LongOptions()

    @property
    def money(self) -> MoneyOptions:
        """The money options in force (chosen, or the defaults the page shows first)."""
        return self.money_options or MoneyOptions()

    def back(self) -> Setup:
        """The set-up at the previous question."""
        if self.question in (Question.LONG_OPTIONS, Question.MONEY_OPTIONS):
            return Setup(self.variant, self.level)
        if self.question is Question.LENGTH:
            return Setup(self.variant)
        return Setup()

    def choose(self, choice: Variant | Level | int | LongOptions | MoneyOptions) -> Setup:
        """The set-up with the current question answered (long or money options: changed)."""
        if isinstance(choice, Variant):
            return Setup(choice)
        if isinstance(choice, Level):
            return replace(self, level=choice)
        if isinstance(choice, LongOptions):
            return replace(self, long_options=choice)
        if isinstance(choice, MoneyOptions):
            return replace(self, money_options=choice)
        return replace(self, length=choice)

    def started(self) -> Setup:
        """The set-up confirmed with its options (long, or the money game's): it starts."""
        if self.variant is Variant.LONG:
            return replace(self, long_options=self.options, start=True)
        return replace(self, money_options=self.money, start=True)

    def codes(self) -> tuple[str, ...]:
        """The callback data's parts after ``p`` (``_`` for the first question)."""
        parts: list[str] = []
        if self.variant is not None:
            parts.append(self.variant.value)
        if self.level is not None:
            parts.append(self.level.value)
        if self.length is not None:
            parts.append(str(self.length))
        if self.long_options is not None:
            parts.append(self.long_options.code)
        if self.money_options is not None:
            parts.append(self.money_options.code)
        if self.start:
            parts.append(START)
        return tuple(parts) or (FIRST,)

    def config(self) -> MatchConfig:
        """The match the finished set-up describes."""
        assert self.variant is not None and self.length is not None
        opts = self.options
        return MatchConfig(
            self.variant,
            self.length,
            mars=opts.mars,
            last_roll=opts.last_roll,
            jacoby=self.money.jacoby,
        )


def lengths(variant: Variant) -> tuple[int, ...]:
    """The lengths offered for ``variant``: the money game is classic only."""
    return CLASSIC_LENGTHS if variant.rules.has_cube else LENGTHS


def _length(text: str, variant: Variant) -> int:
    if text not in {str(n) for n in lengths(variant)}:
        raise BadSetupError(f"not a length: {text!r}")
    return int(text)


def parse(parts: list[str]) -> Setup:
    """The set-up a page's button carries (the parts after ``p``); BadSetupError otherwise."""
    if parts in ([], [FIRST]):
        return Setup()
    if len(parts) > 5:
        raise BadSetupError("not set-up data")
    try:
        setup = Setup(Variant(parts[0]))
        if len(parts) > 1:
            setup = replace(setup, level=Level(parts[1]))
    except ValueError:
        raise BadSetupError(f"not a set-up: {parts!r}") from None
    if len(parts) > 2:
        assert setup.variant is not None
        setup = replace(setup, length=_length(parts[2], setup.variant))
    if len(parts) > 3:
        if setup.variant is Variant.LONG:
            setup = replace(setup, long_options=LongOptions.of_code(parts[3]))
        elif setup.length == 0:
            setup = replace(setup, money_options=MoneyOptions.of_code(parts[3]))
        else:
            raise BadSetupError("options for a classic match")
    if len(parts) > 4:
        if parts[4] != START:
            raise BadSetupError("not a start")
        setup = replace(setup, start=True)
    return setup
