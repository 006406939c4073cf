"""Small shared value types: sides, variants, series settings."""

from __future__ import annotations

from enum import IntEnum, StrEnum


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


class SeriesStart(StrEnum):
    """Who starts the later games of a long series (setting "1ª mossa nella serie")."""

    LOSER = "loser"  # "Al perdente"
    ALTERNATE = "alternate"  # "A turno"
