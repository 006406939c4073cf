"""Small shared value types: sides, variants, results, series settings."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules import Rules

#: Filled by ``engine.rules`` (the registry): a variant's rules object.
_RULES: dict[Variant, Rules] = {}


class Side(IntEnum):
    """A colour. White is 0 and Black is 1 so a side indexes per-side tuples."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def label(self) -> str:
        return "white" if self is Side.WHITE else "black"

    @classmethod
    def parse(cls, text: str) -> Side:
        try:
            return {"white": cls.WHITE, "black": cls.BLACK}[text]
        except KeyError:
            raise ValueError(f"unknown side {text!r}: expected 'white' or 'black'") from None


class Variant(StrEnum):
    CLASSIC = "classic"
    LONG = "long"

    @property
    def rules(self) -> Rules:
        """This variant's rules object (see ``engine.rules``)."""
        rules = _RULES.get(self)
        if rules is None:
            import engine.rules  # noqa: F401  (the registry fills _RULES)

            rules = _RULES[self]
        return rules


class ResultKind(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    OIN = "oin"
    MARS = "mars"
    DRAW = "draw"


class SeriesStart(StrEnum):
    """Who starts the later games of a long series (setting "1ª mossa nella serie")."""

    LOSER = "loser"  # "Al perdente"
    ALTERNATE = "alternate"  # "A turno"
