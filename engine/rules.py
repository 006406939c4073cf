"""One rules object per variant, found through a registry.

In the style of python-chess's variant boards: :class:`Rules` is the shared core (24
points, 15 checkers, two dice, doubles played four times, maximum usage, bearing off),
and each variant is a subclass that overrides the small, named rules where it differs:
the start position, the opposite-point mapping, hitting and the bar, which points are
closed, the head rule with its first-turn exceptions, the six-point block rule, how a
result is scored (single / gammon / backgammon, or Oin / Mars), the cube, the last roll
and who starts the later games of a series.

Find a variant's rules with :func:`rules_for` (or ``Variant.rules``, ``MatchConfig.rules``,
``GameState.rules``). This module is the only place in the engine that tells the
variants apart: everything else asks the rules object a question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine import board as B
from engine.types import ResultKind, SeriesStart, Side, Variant

if TYPE_CHECKING:
    from engine.state_parts import MatchConfig

Checkers = B.Checkers

#: Cubeless points of each classic result, the levels a classic resignation may offer.
CLASSIC_POINTS: dict[ResultKind, int] = {
    ResultKind.SINGLE: 1,
    ResultKind.GAMMON: 2,
    ResultKind.BACKGAMMON: 3,
}


class Rules:
    """The shared core, and the questions on which the variants differ.

    The class attributes are the plain answers; the methods compute the answers that
    depend on a roll, a position or the match's settings. Instances hold no state: there
    is one per variant, in the registry.
    """

    #: The variant these rules are for.
    variant: ClassVar[Variant]
    #: My point p is the opponent's point ``opposite[p]`` (1..24; 0 and 25 map to 0).
    opposite: ClassVar[tuple[int, ...]]
    #: A lone opposing checker is hit when landed on (and goes to the bar).
    hits: ClassVar[bool]
    #: Hit checkers wait on the bar and must enter before anything else moves.
    has_bar: ClassVar[bool]
    #: How many opposing checkers close a point.
    closes_at: ClassVar[int]
    #: At most ``head_limit`` checkers leave the head (point 24) per turn.
    head_rule: ClassVar[bool]
    #: Six consecutive points along the opponent's path are illegal unless an opposing
    #: checker is already past them.
    block_rule: ClassVar[bool]
    #: A doubling cube may be used (when the match's settings allow it).
    has_cube: ClassVar[bool]
    #: The "last roll" setting exists (the second player's last chance to draw).
    has_last_roll: ClassVar[bool]
    #: The opening roll (one die each) is the starter's first move; otherwise the starter
    #: takes White and rolls two dice of their own.
    opening_is_played: ClassVar[bool]
    #: GNU Backgammon's Position ID and Match ID describe this variant's positions.
    gnubg_ids: ClassVar[bool]
    #: A resignation offers a level (single, gammon, backgammon) that the opponent accepts
    #: or declines; otherwise it costs the position's own result.
    offers_resign_levels: ClassVar[bool]
    #: The ordinary win, and the bigger results from the least to the most.
    single: ClassVar[ResultKind]
    big_results: ClassVar[tuple[ResultKind, ...]]

    # ------------------------------------------------------------------ shared core
    def start(self) -> Checkers:
        """One side's checkers at the start of a game (both sides start alike)."""
        raise NotImplementedError

    def turn_dice(
        self, d1: int, d2: int, first_turn: bool = False, after_white_five_five: bool = False
    ) -> tuple[tuple[int, ...], int]:
        """The dice a roll gives to play, and how many checkers may leave the head.

        ``first_turn``: the mover has not moved yet this game; ``after_white_five_five``:
        the mover is Black and White's first roll of the game was 5-5.
        """
        return roll_dice(d1, d2), B.CHECKERS

    @property
    def n_outcomes(self) -> int:
        """Length of an outcome vector: win, the bigger wins, the bigger losses."""
        return 1 + 2 * len(self.big_results)

    def outcome_rank(self, loser: Checkers) -> int:
        """How many of ``big_results`` a finished game reaches (0: a single win)."""
        raise NotImplementedError

    def result_kind(self, loser: Checkers) -> ResultKind:
        """The kind of a win over ``loser`` if the game ended now."""
        rank = self.outcome_rank(loser)
        return self.big_results[rank - 1] if rank else self.single

    def points(self, kind: ResultKind, config: MatchConfig, cube_turned: bool = True) -> int:
        """Cubeless points of a result under the match's settings (``cube_turned``: has the
        cube left the middle this game, for the Jacoby rule)."""
        if kind is ResultKind.DRAW:
            return 0
        if kind is self.single:
            return 1
        if not self.big_results_count(config, cube_turned):
            return 1
        return 2 + self.big_results.index(kind)

    def value(
        self, loser: Checkers, config: MatchConfig, cube_turned: bool = True
    ) -> tuple[ResultKind, int]:
        """What the winner over ``loser`` scores if the game ended now, before the cube."""
        kind = self.result_kind(loser)
        return kind, self.points(kind, config, cube_turned)

    def big_results_count(self, config: MatchConfig, cube_turned: bool = True) -> bool:
        """Do the bigger results score more than a single win under these settings?

        Not in a money game under the Jacoby rule while the cube is still in the middle.
        """
        return cube_turned or not config.jacoby_in_force

    def resign_kinds(self, loser: Checkers, winner: Checkers) -> tuple[ResultKind, ...] | None:
        """The levels a resignation may offer, cheapest first; None when the only level is
        the position's own result (``value``, without ``offers_resign_levels``)."""
        return None

    def cube_in_play(self, config: MatchConfig) -> bool:
        """Is the doubling cube used in this match?"""
        return self.has_cube and config.cube and config.length != 1

    def next_white_player(
        self, config: MatchConfig, white_player: int, last_winner_player: int | None
    ) -> int | None:
        """Who plays White (and starts) the next game of the series; None when an opening
        roll decides it and the colours stay as they are."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ClassicRules(Rules):
    """Classic backgammon: hitting and the bar, gammons and backgammons, the cube."""

    variant = Variant.CLASSIC
    opposite = B.CLASSIC_OPPOSITE
    hits = True
    has_bar = True
    closes_at = 2
    head_rule = False
    block_rule = False
    has_cube = True
    has_last_roll = False
    opening_is_played = True
    gnubg_ids = True
    offers_resign_levels = True
    single = ResultKind.SINGLE
    big_results = (ResultKind.GAMMON, ResultKind.BACKGAMMON)

    def start(self) -> Checkers:
        return B.classic_start()

    def outcome_rank(self, loser: Checkers) -> int:
        if loser[B.OFF] > 0:
            return 0
        if loser[B.BAR] or any(loser[19:25]):
            return 2
        return 1

    def resign_kinds(self, loser: Checkers, winner: Checkers) -> tuple[ResultKind, ...]:
        """A gammon or a backgammon only while the resigner has borne off nothing, and a
        backgammon only while a checker of theirs is on the bar or in the winner's home,
        or could still be hit and sent there."""
        levels = [ResultKind.SINGLE]
        if loser[B.OFF] == 0:
            levels.append(ResultKind.GAMMON)
            trapped = loser[B.BAR] or any(loser[19:25])
            rear_loser = max((q for q in range(1, 26) if loser[q]), default=0)
            rear_winner = max((q for q in range(1, 26) if winner[q]), default=0)
            if trapped or rear_loser + rear_winner > 25:  # contact: a hit is still possible
                levels.append(ResultKind.BACKGAMMON)
        return tuple(levels)


class LongRules(Rules):
    """Backgammon lungo (long nardy): heads, no hitting, the block rule, Oin and Mars."""

    variant = Variant.LONG
    opposite = B.LONG_OPPOSITE
    hits = False
    has_bar = False
    closes_at = 1
    head_rule = True
    block_rule = True
    has_cube = False
    has_last_roll = True
    opening_is_played = False
    gnubg_ids = False
    offers_resign_levels = False
    single = ResultKind.OIN
    big_results = (ResultKind.MARS,)

    #: Doubles that let two checkers leave the head on a player's first turn.
    HEAD_DOUBLES: ClassVar[frozenset[int]] = frozenset({3, 4, 6})

    def start(self) -> Checkers:
        return B.long_start()

    def turn_dice(
        self, d1: int, d2: int, first_turn: bool = False, after_white_five_five: bool = False
    ) -> tuple[tuple[int, ...], int]:
        """One checker leaves the head per turn; on a player's first turn 3-3, 4-4 or 6-6
        let two leave. Black's first 4-4 after White's first 5-5 plays one step of 4."""
        dice = roll_dice(d1, d2)
        head_limit = 1
        if first_turn and d1 == d2:
            if d1 in self.HEAD_DOUBLES:
                head_limit = 2
            if d1 == 4 and after_white_five_five:
                dice, head_limit = (4,), 1
        return dice, head_limit

    def outcome_rank(self, loser: Checkers) -> int:
        return 1 if loser[B.OFF] == 0 else 0

    def big_results_count(self, config: MatchConfig, cube_turned: bool = True) -> bool:
        return config.mars  # "Oin": every result counts 1

    def next_white_player(
        self, config: MatchConfig, white_player: int, last_winner_player: int | None
    ) -> int:
        """ "Al perdente": the loser of the previous game (after a draw, the same starter);
        "A turno": the other player."""
        if config.series_start is SeriesStart.LOSER:
            return white_player if last_winner_player is None else 1 - last_winner_player
        return 1 - white_player


def roll_dice(d1: int, d2: int) -> tuple[int, ...]:
    """The dice a roll gives to play: four of a double, else both."""
    return (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))


#: The registry: every variant's rules object.
RULES: dict[Variant, Rules] = {r.variant: r for r in (ClassicRules(), LongRules())}
for _variant, _rules in RULES.items():
    _variant.rules = _rules  # Variant.rules: an attribute lookup, not a dict lookup


def rules_for(variant: Variant) -> Rules:
    """The rules object of a variant."""
    try:
        return RULES[variant]
    except KeyError:
        raise ValueError(f"no rules for variant {variant!r}") from None


def after_white_five_five(side: Side, white_first_roll: tuple[int, int] | None) -> bool:
    """Is ``side`` Black with White's first roll of the game 5-5 (long's special case)?"""
    return side is Side.BLACK and white_first_roll == (5, 5)
