"""The engine's exception hierarchy.

Callers catch :class:`EngineError` to refuse any bad request politely; the subclasses let
them say *why*: the input itself is malformed, the notation cannot be read, the move is
read but not legal, or it could mean more than one legal play.
"""

from __future__ import annotations

from enum import StrEnum


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidInputError(EngineError, ValueError):
    """Malformed input: a bad id, an impossible position, dice outside 1..6."""


class NotationError(InvalidInputError):
    """A move string that does not parse as backgammon notation."""


class MoveProblem(StrEnum):
    """Why a typed move is not legal, so the player can be told what to change."""

    ILLEGAL = "illegal"  # no more precise reason found (e.g. the order of bearing off)
    NO_MOVE = "no_move"  # this roll has no legal play at all
    NO_CHECKER = "no_checker"  # no checker of the mover's on ``point``
    WRONG_DICE = "wrong_dice"  # the distances typed cannot be made from the dice
    CLOSED_POINT = "closed_point"  # ``point`` is held by the opponent
    NO_BLOT = "no_blot"  # ``*`` on ``point``, where there is no lone checker to hit
    NO_HITTING = "no_hitting"  # ``*`` in long nardy, where nothing is ever hit
    BAR_FIRST = "bar_first"  # checkers on the bar must all enter before anything moves
    NOT_HOME = "not_home"  # bearing off before all fifteen are in the home board
    HEAD_RULE = "head_rule"  # long: too many checkers leave the head this turn
    BLOCK_RULE = "block_rule"  # long: a six-point block with no opposing checker ahead
    LARGER_DIE = "larger_die"  # only one die can be played, and it must be the larger
    INCOMPLETE = "incomplete"  # fewer dice used than the roll allows (``need`` of them)


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position.

    ``problem`` says why in a form the bot can word for the player; ``point`` (in the
    mover's numbering) and ``need`` (dice to use) fill in the details some problems have.
    """

    def __init__(
        self,
        message: str,
        problem: MoveProblem = MoveProblem.ILLEGAL,
        *,
        point: int | None = None,
        need: int | None = None,
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.point = point
        self.need = need


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
