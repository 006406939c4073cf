"""Game and match state, and the turn flow as actions on an immutable value.

``GameState`` is a frozen dataclass; every action (``roll``, ``step``, ``undo``,
``confirm``, ``double``, ``take``, ``drop``, ``resign``, ...) returns a new state or raises
:class:`IllegalActionError` / :class:`IllegalMoveError` with a reason. The state carries
the whole match (score, Crawford, series settings) because the bot stores one value per chat.

Players are 0 and 1 (the two people); colours are :class:`Side`. In classic the colours are
fixed for the match (player ``white_player`` is White). In long the starter of each game
plays White, so ``white_player`` can change between games.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

from engine import board as B
from engine import movegen
from engine.errors import IllegalActionError, IllegalMoveError, InvalidInputError, shown
from engine.movegen import Turn
from engine.moves import Play, Step
from engine.rules import CLASSIC_POINTS as CLASSIC_POINTS
from engine.rules import Rules, after_white_five_five
from engine.types import ResultKind, SeriesStart, Side, Variant

Checkers = B.Checkers
MAX_CUBE = 64
#: What a state computes on demand and keeps in its __dict__ (never part of its value).
_CACHES = frozenset({"_plays", "_steps", "_turn"})


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
    length: int = 1  # points needed to win the match / series
    cube: bool = True  # classic: doubling cube on (matches of 1 point never use it)
    mars: bool = True  # long: Mars counts 2 (False: every result counts 1, "Oin")
    last_roll: bool = False  # long: "diritto all'ultimo lancio"
    series_start: SeriesStart = SeriesStart.LOSER  # long: who starts later games

    def __post_init__(self) -> None:
        # Strict types: a plain "long" has no rules object, and once compared unequal to
        # the member, which gave a long start with classic turn rules.
        if not isinstance(self.variant, Variant):
            raise InvalidInputError(f"variant must be a Variant, got {shown(self.variant)}")
        if not isinstance(self.series_start, SeriesStart):
            raise InvalidInputError(
                f"series_start must be a SeriesStart, got {shown(self.series_start)}"
            )
        for name in ("cube", "mars", "last_roll"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInputError(f"{name} must be True or False")
        if (
            not isinstance(self.length, int)
            or isinstance(self.length, bool)
            or not 1 <= self.length <= 64
        ):
            raise InvalidInputError("match length must be between 1 and 64")

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


@dataclass(frozen=True)
class GameState:
    config: MatchConfig
    checkers: tuple[Checkers, Checkers]  # indexed by Side, own numbering
    phase: Phase = Phase.OPENING
    turn: Side = Side.WHITE  # who must act now
    white_player: int = 0
    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    turn_start: tuple[Checkers, Checkers] | None = None
    cube_value: int = 1
    cube_owner: Side | None = None
    crawford: bool = False  # this game is the Crawford game
    crawford_done: bool = False
    score: tuple[int, int] = (0, 0)  # per player
    game_number: int = 1
    starter: Side | None = None  # who made the first move of this game
    has_moved: tuple[bool, bool] = (False, False)  # per side, for long's first turn
    white_first_roll: tuple[int, int] | None = None  # long: White's first roll this game
    opening_roll: tuple[int, int] | None = None  # last opening roll, per player
    last_roll_turn: bool = False  # long: the loser's extra roll is in progress
    result: GameResult | None = None
    last_play: LastPlay | None = None
    last_winner_player: int | None = None  # for "Al perdente"

    # ----------------------------------------------------------------- creation
    @classmethod
    def new_match(cls, config: MatchConfig) -> GameState:
        if not isinstance(config, MatchConfig):
            raise InvalidInputError(f"expected a MatchConfig, got {type(config).__name__}")
        start = B.start(config.variant)
        return cls(config=config, checkers=(start, start))

    # ----------------------------------------------------------------- basics
    @property
    def variant(self) -> Variant:
        return self.config.variant

    @property
    def rules(self) -> Rules:
        """The variant's rules object (``engine.rules``)."""
        return self.config.variant.rules

    def player_of(self, side: Side) -> int:
        side = _check_side(side)
        return self.white_player if side is Side.WHITE else 1 - self.white_player

    def side_of(self, player: int) -> Side:
        if player not in (0, 1) or isinstance(player, bool):
            raise InvalidInputError(f"a player is 0 or 1, got {shown(player)}")
        return Side.WHITE if player == self.white_player else Side.BLACK

    def pips(self, side: Side) -> int:
        return B.pips(self.checkers[side])

    def borne_off(self, side: Side) -> int:
        return self.checkers[side][B.OFF]

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)

    @property
    def match_winner(self) -> int | None:
        if self.phase is not Phase.MATCH_OVER:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    @property
    def cube_available(self) -> bool:
        """May the side on turn double now (before rolling)?"""
        return (
            self.phase is Phase.ROLL
            and self.config.cube_in_play
            and not self.crawford
            and self.cube_value < MAX_CUBE
            and self.cube_owner in (None, self.turn)
            and not self.last_roll_turn
        )

    def _require(self, phase: Phase, action: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {action} now (phase {self.phase.value})")

    # ----------------------------------------------------------------- opening
    def roll_opening(self, die0: int, die1: int) -> GameState:
        """One die per player. A tie is recorded and the phase stays OPENING.

        Classic: the higher player starts and plays the two numbers. Long: the higher
        player takes White and then rolls two dice of their own.
        """
        self._require(Phase.OPENING, "roll the opening")
        _check_die(die0)
        _check_die(die1)
        if die0 == die1:
            return replace(self, opening_roll=(die0, die1))
        winner = 0 if die0 > die1 else 1
        if not self.rules.opening_is_played:
            return replace(
                self,
                opening_roll=(die0, die1),
                white_player=winner,
                phase=Phase.ROLL,
                turn=Side.WHITE,
            )
        side = self.side_of(winner)
        dice = (die0, die1) if winner == 0 else (die1, die0)
        return replace(self, opening_roll=(die0, die1), turn=side, phase=Phase.ROLL)._start_turn(
            dice
        )

    # ----------------------------------------------------------------- rolling
    def roll(self, d1: int, d2: int) -> GameState:
        self._require(Phase.ROLL, "roll")
        _check_die(d1)
        _check_die(d2)
        return self._start_turn((d1, d2))

    def _start_turn(self, dice: tuple[int, int]) -> GameState:
        state = replace(
            self,
            phase=Phase.MOVE,
            dice=dice,
            steps=(),
            turn_start=self.checkers,
            starter=self.turn if self.starter is None else self.starter,
        )
        if self.rules.head_rule and self.turn is Side.WHITE and not self.has_moved[0]:
            state = replace(state, white_first_roll=dice)
        return state

    # ----------------------------------------------------------------- move generation
    @property
    def first_turn(self) -> bool:
        return not self.has_moved[self.turn]

    def _turn_rules(self) -> tuple[tuple[int, ...], int]:
        """The dice to play and the head allowance, with long's first-turn exceptions."""
        assert self.dice is not None
        d1, d2 = self.dice
        return self.rules.turn_dice(
            d1, d2, self.first_turn, after_white_five_five(self.turn, self.white_first_roll)
        )

    @property
    def head_limit(self) -> int:
        """How many checkers may leave the head this turn (long; 15 in classic)."""
        self._require(Phase.MOVE, "read the head rule")
        return self._turn_rules()[1]

    @property
    def turn_dice(self) -> tuple[int, ...]:
        """The dice this turn plays (four for a double; long's 5-5 / 4-4 case gives one)."""
        self._require(Phase.MOVE, "read the dice")
        return self._turn_rules()[0]

    @cached_property
    def _turn(self) -> Turn:
        """This roll's plays and steps, shared by every state of the turn (and cached by
        position and roll, since the bot rebuilds the state for every click)."""
        dice, head_limit = self._turn_rules()
        assert self.turn_start is not None
        mine, theirs = self.turn_start[self.turn], self.turn_start[self.turn.other]
        return movegen.turn(self.variant, dice, head_limit, tuple(mine), tuple(theirs))

    def legal_plays(self) -> list[Play]:
        """Every distinct legal play of this turn, from the position at the turn's start."""
        self._require(Phase.MOVE, "list plays")
        plays = self.__dict__.get("_plays")
        if plays is None:
            plays = list(self._turn.plays)
            object.__setattr__(self, "_plays", plays)  # a cache, not state
        return plays

    def _node(self) -> tuple[Checkers, Checkers, tuple[int, ...], int]:
        dice, _ = self._turn_rules()
        left = list(dice)
        head_used = 0
        for s in self.steps:
            left.remove(s.die)
            head_used += s.src == 24
        return (
            self.checkers[self.turn],
            self.checkers[self.turn.other],
            tuple(left),
            head_used if self.rules.head_rule else 0,
        )

    def legal_steps(self) -> list[Step]:
        """Next steps that belong to some legal play, given the steps already made."""
        self._require(Phase.MOVE, "list steps")
        steps = self.__dict__.get("_steps")
        if steps is None:
            turn = self._turn
            if self.steps:
                _, _, left, _ = self._node()
            else:
                left = turn.dice  # the turn's start: every die is left
            steps = turn.legal_steps(self.checkers[self.turn], self.checkers[self.turn.other], left)
            object.__setattr__(self, "_steps", steps)
        return steps

    @property
    def dice_left(self) -> tuple[int, ...]:
        return self._node()[2] if self.phase is Phase.MOVE else ()

    @property
    def play_complete(self) -> bool:
        """True when the steps made form a whole legal play (or no move exists)."""
        if self.phase is not Phase.MOVE:
            return False
        turn = self._turn
        if not turn.plays:
            return True
        mine, theirs = self.checkers[self.turn], self.checkers[self.turn.other]
        return turn.is_play(mine, theirs) and not self.legal_steps()

    # ----------------------------------------------------------------- playing
    def step(self, step: Step | tuple[int, int] | tuple[int, int, int]) -> GameState:
        """Make one step; accepts a Step or (src, dst[, die])."""
        self._require(Phase.MOVE, "move")
        die: int | None  # None: any die that makes the step
        if isinstance(step, Step):
            src, dst, die = step.src, step.dst, step.die
        elif (
            isinstance(step, tuple | list)
            and len(step) in (2, 3)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in step)
        ):
            src, dst, die = (*step, None) if len(step) == 2 else step
        else:
            raise InvalidInputError(f"a step is a Step or (src, dst[, die]), got {shown(step)}")
        if not (0 <= src <= B.BAR and 0 <= dst <= B.BAR and (die is None or 1 <= die <= 6)):
            # Well-typed but off the board: as illegal as any other step (never printed
            # whole: an int of more than 4,300 digits cannot be turned into text).
            raise IllegalMoveError(f"step {shown(src)}/{shown(dst)} is not legal now")
        for s in self.legal_steps():
            if s.src == src and s.dst == dst and (die is None or s.die == die):
                return self._apply_step(s)
        raise IllegalMoveError(f"step {_fmt(src)}/{_fmt(dst)} is not legal now")

    def _apply_step(self, s: Step) -> GameState:
        me, opp = self.turn, self.turn.other
        mine = list(self.checkers[me])
        theirs = list(self.checkers[opp])
        mine[s.src] -= 1
        mine[s.dst] += 1
        if s.hit:
            theirs[25 - s.dst] -= 1
            theirs[B.BAR] += 1
        checkers: list[B.Checkers] = [(), ()]
        checkers[me], checkers[opp] = tuple(mine), tuple(theirs)
        new = self._evolve(checkers=(checkers[0], checkers[1]), steps=(*self.steps, s))
        for cached in ("_plays", "_turn"):  # same turn, same plays and search
            if cached in self.__dict__:
                object.__setattr__(new, cached, self.__dict__[cached])
        return new

    def _evolve(self, **changes: object) -> GameState:
        """``dataclasses.replace`` for the turn's hot path (every step, and the bot's
        shortcut buttons walk whole trees of steps): the fields are copied as they are,
        without the per-field work of ``replace``; the caches are left behind."""
        new = object.__new__(type(self))
        fields = new.__dict__
        for name, value in self.__dict__.items():
            if name not in _CACHES:
                fields[name] = value
        fields.update(changes)
        return new

    def undo(self) -> GameState:
        """Take back the last step of this turn."""
        self._require(Phase.MOVE, "take back")
        if not self.steps:
            raise IllegalActionError("no step to take back")
        state = self._evolve(checkers=self.turn_start, steps=())
        for s in self.steps[:-1]:
            state = state._apply_step(s)
        return state

    def reset_turn(self) -> GameState:
        self._require(Phase.MOVE, "take back")
        return self._evolve(checkers=self.turn_start, steps=())

    def play(self, play: Play) -> GameState:
        """Replace any steps made this turn with a whole legal play, and confirm it."""
        self._require(Phase.MOVE, "move")
        if not isinstance(play, Play):
            raise InvalidInputError(f"expected a Play, got {type(play).__name__}")
        if not self._turn.is_play(play.mine, play.theirs):
            raise IllegalMoveError("this play is not legal")
        state = self.reset_turn()
        for s in play.steps:
            state = state._apply_step(s)
        return state.confirm()

    def confirm(self) -> GameState:
        """End the turn: the steps must form a complete legal play."""
        self._require(Phase.MOVE, "confirm")
        if not self.play_complete:
            raise IllegalMoveError("the play is not complete: use all the dice you can")
        me = self.turn
        moved = list(self.has_moved)
        moved[me] = True
        state = replace(
            self,
            phase=Phase.ROLL,
            turn=me.other,
            steps=(),
            turn_start=None,
            dice=None,
            has_moved=(moved[0], moved[1]),
            last_play=LastPlay(me, self.steps, self.dice),
        )
        mine_off = self.checkers[me][B.OFF] == B.CHECKERS
        if state.last_roll_turn:
            winner = me.other  # the starter, who bore off first
            if mine_off:
                return state._end(None, ResultKind.DRAW, 0, EndReason.LAST_ROLL)
            kind, points = state._value_for(winner)
            return state._end(winner, kind, points, EndReason.LAST_ROLL)
        if not mine_off:
            return state
        if (
            self.rules.has_last_roll
            and self.config.last_roll
            and me is self.starter
            and self.checkers[me.other][B.OFF] < B.CHECKERS
        ):
            return replace(state, last_roll_turn=True)
        kind, points = state._value_for(me)
        return state._end(me, kind, points, EndReason.PLAYED)

    # ----------------------------------------------------------------- results
    def _value_for(self, winner: Side) -> tuple[ResultKind, int]:
        """What ``winner`` would score if the game ended now, before the cube."""
        return self.rules.value(self.checkers[winner.other], self.config)

    def _resign_base(self) -> GameState:
        """The position a resignation is valued on: the turn's unconfirmed steps do not count
        (they can still be taken back), so the value shown and the value charged agree."""
        if self.phase is Phase.MOVE and self.steps:
            return self.reset_turn()
        return self

    def resign_levels(self, side: Side) -> tuple[GameResult, ...]:
        """What ``side`` may offer to resign now, cheapest first (points after the cube).

        Classic offers only the levels the game could still end with: a gammon or a
        backgammon only while the resigner has borne off nothing, and a backgammon only
        while a checker of theirs is on the bar or in the winner's home, or could still be
        hit and sent there. Long has one level: the position's own, Oin or Mars.
        """
        side = _check_side(side)
        if self.is_over or self.phase is Phase.OPENING:
            return ()
        state = self._resign_base()
        rules = self.rules
        kinds = rules.resign_kinds(state.checkers[side], state.checkers[side.other])
        if kinds is None:
            return (state._resign_result(side, *state._value_for(side.other)),)
        return tuple(state._resign_result(side, k, rules.points(k, self.config)) for k in kinds)

    def _resign_result(self, side: Side, kind: ResultKind, points: int) -> GameResult:
        cube = self.cube_value
        return GameResult(side.other, kind, points * cube, EndReason.RESIGNED, cube)

    def resign_value(self, side: Side, kind: ResultKind | None = None) -> GameResult:
        """What resigning now would cost ``side``: at the level ``kind`` (one of
        ``resign_levels``), or by the position when None (long, running out of time)."""
        side = _check_side(side)
        if kind is None:
            state = self._resign_base()
            return state._resign_result(side, *state._value_for(side.other))
        for level in self.resign_levels(side):
            if level.kind is kind:
                return level
        raise IllegalActionError(f"cannot resign a {kind.value} now")

    def _end(
        self, winner: Side | None, kind: ResultKind, points: int, reason: EndReason
    ) -> GameState:
        total = points * self.cube_value if winner is not None else 0
        result = GameResult(winner, kind, total, reason, self.cube_value)
        score = list(self.score)
        winner_player = None
        if winner is not None:
            winner_player = self.player_of(winner)
            score[winner_player] += total
        over = max(score) >= self.config.length
        return replace(
            self,
            phase=Phase.MATCH_OVER if over else Phase.GAME_OVER,
            result=result,
            score=(score[0], score[1]),
            dice=None,
            steps=(),
            turn_start=None,
            last_winner_player=winner_player,
        )

    def resign(self, side: Side, kind: ResultKind | None = None) -> GameState:
        """``side`` gives up: at the level ``kind`` (accepted by the opponent), or by the
        position when None. The result is exactly ``resign_value(side, kind)``."""
        side = _check_side(side)
        if self.is_over or self.phase is Phase.OPENING:
            raise IllegalActionError("no game in progress to resign")
        value = self.resign_value(side, kind)
        return self._resign_base()._end(
            side.other, value.kind, value.points // value.cube, EndReason.RESIGNED
        )

    def timeout(self, side: Side) -> GameState:
        """``side`` ran out of time: they lose the game as if they had resigned."""
        side = _check_side(side)
        if self.is_over:
            raise IllegalActionError("the game is already over")
        if self.phase is Phase.OPENING:
            return self._end(side.other, self.rules.single, 1, EndReason.TIMEOUT)
        state = self.resign(side)
        result = state.result
        assert result is not None  # resigning always ends the game with a result
        return replace(state, result=replace(result, reason=EndReason.TIMEOUT))

    # ----------------------------------------------------------------- cube
    def double(self) -> GameState:
        if not self.cube_available:
            raise IllegalActionError("doubling is not allowed now")
        return replace(self, phase=Phase.DOUBLED, turn=self.turn.other)

    def take(self) -> GameState:
        self._require(Phase.DOUBLED, "take")
        return replace(
            self,
            phase=Phase.ROLL,
            cube_value=self.cube_value * 2,
            cube_owner=self.turn,
            turn=self.turn.other,
        )

    def drop(self) -> GameState:
        self._require(Phase.DOUBLED, "drop")
        doubler = self.turn.other
        return self._end(doubler, ResultKind.SINGLE, 1, EndReason.DROPPED)

    # ----------------------------------------------------------------- next game
    def next_game(self) -> GameState:
        """Start the next game of the match or series."""
        self._require(Phase.GAME_OVER, "start the next game")
        start = B.start(self.variant)
        crawford = False
        crawford_done = self.crawford_done
        if (
            self.config.cube_in_play
            and not crawford_done
            and max(self.score) == self.config.length - 1
        ):
            crawford, crawford_done = True, True
        base = replace(
            self,
            checkers=(start, start),
            phase=Phase.OPENING,
            turn=Side.WHITE,
            dice=None,
            steps=(),
            turn_start=None,
            cube_value=1,
            cube_owner=None,
            crawford=crawford,
            crawford_done=crawford_done,
            game_number=self.game_number + 1,
            starter=None,
            has_moved=(False, False),
            white_first_roll=None,
            opening_roll=None,
            last_roll_turn=False,
            result=None,
            last_play=None,
        )
        first = self.rules.next_white_player(
            self.config, self.white_player, self.last_winner_player
        )
        if first is None:
            return base  # an opening roll decides who starts
        return replace(base, white_player=first, phase=Phase.ROLL)


def _check_die(d: object) -> None:
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise InvalidInputError(f"a die must be an integer from 1 to 6, got {shown(d)}")


def _check_side(side: object) -> Side:
    """A Side (or its number, 0 or 1); anything else is refused."""
    if isinstance(side, Side):
        return side
    if isinstance(side, int) and not isinstance(side, bool) and side in (0, 1):
        return Side(side)
    raise InvalidInputError(f"a side is Side.WHITE or Side.BLACK, got {shown(side)}")


def _fmt(p: int) -> str:
    return "bar" if p == B.BAR else "off" if p == B.OFF else str(p)
