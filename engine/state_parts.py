"""The values a game state is made of: settings, results, and its match, game and turn parts.

A :class:`~engine.game.GameState` is three small frozen values, each changing at its own
pace: the :class:`MatchPart` between games (score, Crawford, what the series remembers),
the :class:`GamePart` between turns (checkers, cube, phase, who is on turn) and the
:class:`TurnPart` with every step (dice, steps, the turn's start). Keeping them apart
lets each action say which part it changes, and lets a step copy only what a step touches.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from engine.board import Checkers
from engine.errors import InvalidInputError, shown
from engine.moves import Step
from engine.rules import Rules
from engine.types import ResultKind, SeriesStart, Side, Variant


class Phase(StrEnum):
    OPENING = "opening"  # waiting for the opening roll (one die each)
    ROLL = "roll"  # the side on turn may double (classic) or roll
    MOVE = "move"  # dice rolled, steps being played
    DOUBLED = "doubled"  # the side on turn must take or drop
    GAME_OVER = "game_over"  # the game ended, the match goes on
    MATCH_OVER = "match_over"


class EndReason(StrEnum):
    PLAYED = "played"  # the last checker was borne off
    RESIGNED = "resigned"
    DROPPED = "dropped"  # a double was refused
    TIMEOUT = "timeout"
    LAST_ROLL = "last_roll"  # long: decided by the last roll (draw or not)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Settings chosen when a match or series starts."""

    variant: Variant = Variant.CLASSIC
    length: int = 1  # points needed to win the match / series; 0: a money game (classic)
    cube: bool = True  # classic: doubling cube on (matches of 1 point never use it)
    mars: bool = True  # long: Mars counts 2 (False: every result counts 1, "Oin")
    last_roll: bool = False  # long: "diritto all'ultimo lancio"
    series_start: SeriesStart = SeriesStart.LOSER  # long: who starts later games
    jacoby: bool = True  # money game: gammons count only once the cube has been turned

    def __post_init__(self) -> None:
        # Strict types: a plain "long" has no rules object, and once compared unequal to
        # the member, which gave a long start with classic turn rules.
        if not isinstance(self.variant, Variant):
            raise InvalidInputError(f"variant must be a Variant, got {shown(self.variant)}")
        if not isinstance(self.series_start, SeriesStart):
            raise InvalidInputError(
                f"series_start must be a SeriesStart, got {shown(self.series_start)}"
            )
        for name in ("cube", "mars", "last_roll", "jacoby"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInputError(f"{name} must be True or False")
        if (
            not isinstance(self.length, int)
            or isinstance(self.length, bool)
            or not 0 <= self.length <= 64
        ):
            raise InvalidInputError("match length must be between 1 and 64, or 0 (money)")
        if self.length == 0 and not self.variant.rules.has_cube:
            raise InvalidInputError("a money game needs a variant with the cube")

    @property
    def money(self) -> bool:
        """A money game: one game played for points with the cube, no match score, no
        Crawford (gnubg's "money play", match length 0)."""
        return self.length == 0

    @property
    def goal(self) -> int:
        """The score that ends the match: any win ends a money game (it is one game)."""
        return self.length or 1

    @property
    def jacoby_in_force(self) -> bool:
        """Do gammons wait for the cube to be turned (the Jacoby rule of money play)?"""
        return self.money and self.jacoby and self.cube_in_play

    @property
    def rules(self) -> Rules:
        """The variant's rules object."""
        return self.variant.rules

    @property
    def cube_in_play(self) -> bool:
        return self.variant.rules.cube_in_play(self)


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended. ``winner`` is None only for a draw (long, last roll)."""

    winner: Side | None
    kind: ResultKind
    points: int
    reason: EndReason
    cube: int = 1


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The previous turn, for highlighting: who moved and the steps, in their numbering."""

    side: Side
    steps: tuple[Step, ...]
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class MatchPart:
    """What lasts from game to game: the settings, the score, Crawford and the series'
    memory of who won last."""

    config: MatchConfig
    score: tuple[int, int] = (0, 0)  # per player
    game_number: int = 1
    crawford: bool = False  # this game is the Crawford game
    crawford_done: bool = False
    last_winner_player: int | None = None  # for "Al perdente"


@dataclass(frozen=True, slots=True)
class GamePart:
    """One game between turns: the checkers, who acts and in which phase, the cube, and
    what the rules remember of the game's start (starter, first moves, the opening roll)."""

    checkers: tuple[Checkers, Checkers]  # indexed by Side, own numbering
    phase: Phase = Phase.OPENING
    turn: Side = Side.WHITE  # who must act now
    white_player: int = 0  # the player who plays White (long: can change between games)
    cube_value: int = 1
    cube_owner: Side | None = None
    starter: Side | None = None  # who made the first move of this game
    has_moved: tuple[bool, bool] = (False, False)  # per side, for long's first turn
    white_first_roll: tuple[int, int] | None = None  # long: White's first roll this game
    opening_roll: tuple[int, int] | None = None  # last opening roll, per player
    last_roll_turn: bool = False  # long: the loser's extra roll is in progress
    result: GameResult | None = None

    def with_checkers(self, checkers: tuple[Checkers, Checkers]) -> GamePart:
        """This game with the checkers moved: ``replace(self, checkers=...)`` without its
        per-field work, because a step makes one and the bot's one-tap buttons walk whole
        trees of steps."""
        return GamePart(checkers, *_GAME_AFTER_CHECKERS(self))


@dataclass(frozen=True, slots=True)
class TurnPart:
    """The roll being played (dice, the steps made, the position they started from) and
    the previous turn, which stays shown until the next one is confirmed."""

    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    turn_start: tuple[Checkers, Checkers] | None = None
    last_play: LastPlay | None = None

    def with_step(self, step: Step) -> TurnPart:
        """This turn with one more step made (see ``GamePart.with_checkers``)."""
        return TurnPart(self.dice, (*self.steps, step), self.turn_start, self.last_play)


#: Every field of a GamePart after ``checkers``, in order, read in one C call.
_GAME_AFTER_CHECKERS = attrgetter(*list(GamePart.__dataclass_fields__)[1:])


#: The flat name of every field of the parts, and the part that holds it.
PART_OF_FIELD: dict[str, type[MatchPart | GamePart | TurnPart]] = {
    name: part for part in (MatchPart, GamePart, TurnPart) for name in part.__dataclass_fields__
}
