"""The engine's exception hierarchy.

Callers catch :class:`EngineError` to refuse any bad request politely; the subclasses let
them say *why*: the input itself is malformed, the notation cannot be read, the move is
read but not legal, or it could mean more than one legal play.
"""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidInputError(EngineError, ValueError):
    """Malformed input: a bad id, an impossible position, dice outside 1..6."""


class NotationError(InvalidInputError):
    """A move string that does not parse as backgammon notation."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(IllegalMoveError):
    """A typed move that matches more than one legal play; ``options`` lists them."""

    def __init__(self, message: str, options: list[str]) -> None:
        super().__init__(message)
        self.options = options


class IllegalActionError(EngineError):
    """An action that is not allowed now (wrong phase, wrong player, cube not available)."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about bad input.

    Input can be anything, including an integer too long to print (Python refuses to turn
    one of more than 4,300 digits into text) or a string of megabytes.
    """
    try:
        text = repr(value)
    except ValueError:
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
