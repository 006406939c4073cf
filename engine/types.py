"""Small shared value types: sides, variants, results, series settings."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules import Rules


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

    #: This variant's rules object: set on each member by the registry (``engine.rules``,
    #: imported with the ``engine`` package), a plain attribute for the hot paths.
    rules: Rules


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
