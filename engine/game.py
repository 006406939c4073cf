"""Game and match state, and the turn flow as actions on an immutable value.

``GameState`` is a frozen value made of three frozen parts (``engine.state_parts``):

- ``match_part`` (:class:`MatchPart`): the settings, the score, Crawford, the game number
  and who won the last game (for a series where the loser starts);
- ``game_part`` (:class:`GamePart`): the checkers, the phase, who acts, the cube, which
  player is White, the game's starter and first rolls, and the result once it is over;
- ``turn_part`` (:class:`TurnPart`): the dice, the steps made, the position at the turn's
  start, and the previous turn's play (for highlighting).

Every field is also read by its own name on the state (``state.score``,
``state.checkers``, ``state.dice``, ...): that flat view is the readable API. A state can
be built from the same names (``GameState(config, checkers, phase, turn, has_moved=...)``),
which is also how ``dataclasses.replace(state, score=...)`` keeps working.

Every action (``roll``, ``step``, ``undo``, ``confirm``, ``double``, ``take``, ``drop``,
``resign``, ...) returns a new state or raises :class:`IllegalActionError` /
:class:`IllegalMoveError` with a reason. Nothing is written into a state once it is made:
what derives from it (the legal plays and steps of a roll) comes from ``movegen.turn``, a
cache keyed by the position and the roll that lives outside the value. The state carries
the whole match because the bot stores one value per chat.

Players are 0 and 1 (the two people); colours are :class:`Side`. In classic the colours are
fixed for the match (player ``white_player`` is White). In long the starter of each game
plays White, so ``white_player`` can change between games.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine import board as B
from engine import movegen
from engine.errors import IllegalActionError, IllegalMoveError, InvalidInputError, shown
from engine.movegen import Turn
from engine.moves import Play, Step
from engine.rules import CLASSIC_POINTS as CLASSIC_POINTS
from engine.rules import Rules, after_white_five_five
from engine.state_parts import PART_OF_FIELD, GamePart, MatchPart, TurnPart
from engine.state_parts import EndReason as EndReason
from engine.state_parts import GameResult as GameResult
from engine.state_parts import LastPlay as LastPlay
from engine.state_parts import MatchConfig as MatchConfig
from engine.state_parts import Phase as Phase
from engine.types import ResultKind, Side, Variant

Checkers = B.Checkers
MAX_CUBE = 64

_P = TypeVar("_P", MatchPart, GamePart, TurnPart)


def _part(cls: type[_P], part: _P | None, flat: dict[str, Any]) -> _P:
    """``part`` (or a new one) with the flat fields that belong to ``cls`` taken out of
    ``flat`` and applied."""
    mine = {name: flat.pop(name) for name in list(flat) if PART_OF_FIELD[name] is cls}
    if part is None:
        return cls(**mine)
    return replace(part, **mine) if mine else part


def _state(match: MatchPart, game: GamePart, turn: TurnPart) -> GameState:
    """A state from its parts, without the flat-field handling of ``GameState()``: every
    action ends here, and a step (which the bot's shortcut buttons make by the hundred)
    should cost no more than its parts."""
    state = object.__new__(GameState)
    object.__setattr__(state, "match_part", match)
    object.__setattr__(state, "game_part", game)
    object.__setattr__(state, "turn_part", turn)
    return state


# Not slotted, unlike its parts: a frozen dataclass with slots refuses an assignment to a
# property (``state.score = ...``) with a confusing TypeError on Python 3.11 instead of
# FrozenInstanceError. The instance dict holds the three parts and nothing else.
@dataclass(frozen=True, init=False)
class GameState:
    match_part: MatchPart
    game_part: GamePart
    turn_part: TurnPart

    def __init__(
        self,
        config: MatchConfig | None = None,
        checkers: tuple[Checkers, Checkers] | None = None,
        phase: Phase | None = None,
        turn: Side | None = None,
        *,
        match_part: MatchPart | None = None,
        game_part: GamePart | None = None,
        turn_part: TurnPart | None = None,
        **fields: Any,
    ) -> None:
        """The three parts, or the flat fields by name (``config`` and ``checkers`` at
        least, the rest defaults to a new game), or parts with some flat fields changed
        (what ``dataclasses.replace(state, score=...)`` passes)."""
        flat = dict(fields)
        for name, value in (
            ("config", config),
            ("checkers", checkers),
            ("phase", phase),
            ("turn", turn),
        ):
            if value is not None:
                flat[name] = value
        unknown = sorted(set(flat) - PART_OF_FIELD.keys())
        if unknown:
            raise TypeError(f"GameState has no field {unknown[0]!r}")
        try:
            match = _part(MatchPart, match_part, flat)
            game = _part(GamePart, game_part, flat)
        except TypeError:
            raise TypeError("a new GameState needs at least its config and checkers") from None
        object.__setattr__(self, "match_part", match)
        object.__setattr__(self, "game_part", game)
        object.__setattr__(self, "turn_part", _part(TurnPart, turn_part, flat))

    # ----------------------------------------------------------------- the flat view
    # Match
    @property
    def config(self) -> MatchConfig:
        return self.match_part.config

    @property
    def score(self) -> tuple[int, int]:
        """Points per player (0 and 1)."""
        return self.match_part.score

    @property
    def game_number(self) -> int:
        return self.match_part.game_number

    @property
    def crawford(self) -> bool:
        """This game is the Crawford game (no doubling)."""
        return self.match_part.crawford

    @property
    def crawford_done(self) -> bool:
        return self.match_part.crawford_done

    @property
    def last_winner_player(self) -> int | None:
        return self.match_part.last_winner_player

    # Game
    @property
    def checkers(self) -> tuple[Checkers, Checkers]:
        """Both sides' checkers, indexed by Side, each in its own numbering."""
        return self.game_part.checkers

    @property
    def phase(self) -> Phase:
        return self.game_part.phase

    @property
    def turn(self) -> Side:
        """Who must act now."""
        return self.game_part.turn

    @property
    def white_player(self) -> int:
        return self.game_part.white_player

    @property
    def cube_value(self) -> int:
        return self.game_part.cube_value

    @property
    def cube_owner(self) -> Side | None:
        return self.game_part.cube_owner

    @property
    def starter(self) -> Side | None:
        """Who made the first move of this game."""
        return self.game_part.starter

    @property
    def has_moved(self) -> tuple[bool, bool]:
        """Per side: has it finished a turn this game (long's first-turn rules)?"""
        return self.game_part.has_moved

    @property
    def white_first_roll(self) -> tuple[int, int] | None:
        return self.game_part.white_first_roll

    @property
    def opening_roll(self) -> tuple[int, int] | None:
        return self.game_part.opening_roll

    @property
    def last_roll_turn(self) -> bool:
        return self.game_part.last_roll_turn

    @property
    def result(self) -> GameResult | None:
        return self.game_part.result

    # Turn
    @property
    def dice(self) -> tuple[int, int] | None:
        return self.turn_part.dice

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps made so far this turn."""
        return self.turn_part.steps

    @property
    def turn_start(self) -> tuple[Checkers, Checkers] | None:
        return self.turn_part.turn_start

    @property
    def last_play(self) -> LastPlay | None:
        return self.turn_part.last_play

    def _with(
        self,
        match: MatchPart | None = None,
        game: GamePart | None = None,
        turn: TurnPart | None = None,
    ) -> GameState:
        """This state with some of its parts replaced."""
        return _state(
            self.match_part if match is None else match,
            self.game_part if game is None else game,
            self.turn_part if turn is None else turn,
        )

    # ----------------------------------------------------------------- creation
    @classmethod
    def new_match(cls, config: MatchConfig) -> GameState:
        if not isinstance(config, MatchConfig):
            raise InvalidInputError(f"expected a MatchConfig, got {type(config).__name__}")
        start = B.start(config.variant)
        return _state(MatchPart(config), GamePart((start, start)), TurnPart())

    # ----------------------------------------------------------------- basics
    @property
    def variant(self) -> Variant:
        return self.match_part.config.variant

    @property
    def rules(self) -> Rules:
        """The variant's rules object (``engine.rules``)."""
        return self.match_part.config.variant.rules

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
        game = self.game_part
        return (
            game.phase is Phase.ROLL
            and self.config.cube_in_play
            and not self.crawford
            and game.cube_value < MAX_CUBE
            and game.cube_owner in (None, game.turn)
            and not game.last_roll_turn
        )

    def _require(self, phase: Phase, action: str) -> None:
        if self.game_part.phase is not phase:
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
        game = replace(self.game_part, opening_roll=(die0, die1))
        if die0 == die1:
            return self._with(game=game)
        winner = 0 if die0 > die1 else 1
        if not self.rules.opening_is_played:
            game = replace(game, white_player=winner, phase=Phase.ROLL, turn=Side.WHITE)
            return self._with(game=game)
        side = self.side_of(winner)
        dice = (die0, die1) if winner == 0 else (die1, die0)
        return self._with(game=replace(game, turn=side, phase=Phase.ROLL))._start_turn(dice)

    # ----------------------------------------------------------------- rolling
    def roll(self, d1: int, d2: int) -> GameState:
        self._require(Phase.ROLL, "roll")
        _check_die(d1)
        _check_die(d2)
        return self._start_turn((d1, d2))

    def _start_turn(self, dice: tuple[int, int]) -> GameState:
        game = self.game_part
        first_white_roll = (
            self.rules.head_rule and game.turn is Side.WHITE and not game.has_moved[0]
        )
        game = replace(
            game,
            phase=Phase.MOVE,
            starter=game.turn if game.starter is None else game.starter,
            white_first_roll=dice if first_white_roll else game.white_first_roll,
        )
        turn = replace(self.turn_part, dice=dice, steps=(), turn_start=game.checkers)
        return self._with(game=game, turn=turn)

    # ----------------------------------------------------------------- move generation
    @property
    def first_turn(self) -> bool:
        return not self.has_moved[self.turn]

    def _turn_rules(self) -> tuple[tuple[int, ...], int]:
        """The dice to play and the head allowance, with long's first-turn exceptions."""
        game = self.game_part
        dice = self.turn_part.dice
        assert dice is not None
        side = game.turn
        return self.match_part.config.variant.rules.turn_dice(
            dice[0],
            dice[1],
            not game.has_moved[side],
            after_white_five_five(side, game.white_first_roll),
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

    def _turn(self) -> Turn:
        """This roll's plays and steps, shared by every state of the turn: ``movegen.turn``
        keeps them by position and roll (the bot rebuilds the state for every click)."""
        game, turn = self.game_part, self.turn_part
        dice, start = turn.dice, turn.turn_start
        assert dice is not None and start is not None
        side = game.turn
        return movegen.turn(
            self.match_part.config.variant,
            dice,
            not game.has_moved[side],
            after_white_five_five(side, game.white_first_roll),
            start[side],
            start[1 - side],
        )

    def legal_plays(self) -> list[Play]:
        """Every distinct legal play of this turn, from the position at the turn's start."""
        self._require(Phase.MOVE, "list plays")
        return list(self._turn().plays)

    def _dice_left(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        left = list(dice)
        for s in self.steps:
            left.remove(s.die)
        return tuple(left)

    def legal_steps(self) -> list[Step]:
        """Next steps that belong to some legal play, given the steps already made."""
        self._require(Phase.MOVE, "list steps")
        turn = self._turn()
        left = self._dice_left(turn.dice) if self.turn_part.steps else turn.dice
        checkers, me = self.game_part.checkers, self.game_part.turn
        return turn.legal_steps(checkers[me], checkers[1 - me], left)

    @property
    def dice_left(self) -> tuple[int, ...]:
        return self._dice_left(self._turn_rules()[0]) if self.phase is Phase.MOVE else ()

    @property
    def play_complete(self) -> bool:
        """True when the steps made form a whole legal play (or no move exists)."""
        if self.phase is not Phase.MOVE:
            return False
        turn = self._turn()
        if not turn.plays:
            return True
        mine, theirs = self.checkers[self.turn], self.checkers[self.turn.other]
        return turn.is_play(mine, theirs) and not self.legal_steps()

    # ----------------------------------------------------------------- playing
    def step(self, step: Step | tuple[int, int] | tuple[int, int, int]) -> GameState:
        """Make one step; accepts a Step or (src, dst[, die])."""
        self._require(Phase.MOVE, "move")
        src, dst, die = _step_parts(step)
        for s in self.legal_steps():
            if s.src == src and s.dst == dst and (die is None or s.die == die):
                return self._apply_step(s)
        raise IllegalMoveError(f"step {_fmt(src)}/{_fmt(dst)} is not legal now")

    def _apply_step(self, s: Step) -> GameState:
        game = self.game_part
        me, opp = game.turn, game.turn.other
        mine = list(game.checkers[me])
        theirs = list(game.checkers[opp])
        mine[s.src] -= 1
        mine[s.dst] += 1
        if s.hit:
            theirs[25 - s.dst] -= 1
            theirs[B.BAR] += 1
        checkers: list[B.Checkers] = [(), ()]
        checkers[me], checkers[opp] = tuple(mine), tuple(theirs)
        game = game.with_checkers((checkers[0], checkers[1]))
        return _state(self.match_part, game, self.turn_part.with_step(s))

    def _at_turn_start(self) -> GameState:
        """The turn's position with no step made."""
        start = self.turn_start
        assert start is not None
        game = replace(self.game_part, checkers=start)
        return self._with(game=game, turn=replace(self.turn_part, steps=()))

    def undo(self) -> GameState:
        """Take back the last step of this turn."""
        self._require(Phase.MOVE, "take back")
        if not self.steps:
            raise IllegalActionError("no step to take back")
        state = self._at_turn_start()
        for s in self.steps[:-1]:
            state = state._apply_step(s)
        return state

    def reset_turn(self) -> GameState:
        self._require(Phase.MOVE, "take back")
        return self._at_turn_start()

    def play(self, play: Play) -> GameState:
        """Replace any steps made this turn with a whole legal play, and confirm it."""
        self._require(Phase.MOVE, "move")
        if not isinstance(play, Play):
            raise InvalidInputError(f"expected a Play, got {type(play).__name__}")
        if not self._turn().is_play(play.mine, play.theirs):
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
        game = replace(
            self.game_part, phase=Phase.ROLL, turn=me.other, has_moved=(moved[0], moved[1])
        )
        state = self._with(game=game, turn=TurnPart(last_play=LastPlay(me, self.steps, self.dice)))
        mine_off = self.checkers[me][B.OFF] == B.CHECKERS
        if game.last_roll_turn:
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
            return state._with(game=replace(game, last_roll_turn=True))
        kind, points = state._value_for(me)
        return state._end(me, kind, points, EndReason.PLAYED)

    # ----------------------------------------------------------------- results
    def _value_for(self, winner: Side) -> tuple[ResultKind, int]:
        """What ``winner`` would score if the game ended now, before the cube."""
        return self.rules.value(self.checkers[winner.other], self.config, self.cube_value > 1)

    def _resign_base(self) -> GameState:
        """The position a resignation is valued on: the turn's unconfirmed steps do not count
        (they can still be taken back), so the value shown and the value charged agree."""
        if self.phase is Phase.MOVE and self.steps:
            return self._at_turn_start()
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
        turned = self.cube_value > 1
        return tuple(
            state._resign_result(side, k, rules.points(k, self.config, turned)) for k in kinds
        )

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
        cube = self.cube_value
        total = points * cube if winner is not None else 0
        score = list(self.score)
        winner_player = None
        if winner is not None:
            winner_player = self.player_of(winner)
            score[winner_player] += total
        over = max(score) >= self.config.goal
        match = replace(
            self.match_part, score=(score[0], score[1]), last_winner_player=winner_player
        )
        game = replace(
            self.game_part,
            phase=Phase.MATCH_OVER if over else Phase.GAME_OVER,
            result=GameResult(winner, kind, total, reason, cube),
        )
        return _state(match, game, TurnPart(last_play=self.last_play))

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
        game = replace(state.game_part, result=replace(result, reason=EndReason.TIMEOUT))
        return state._with(game=game)

    def forfeit(self, side: Side, *, on_time: bool = False) -> GameState:
        """``side`` leaves the whole match or series: the opponent wins it.

        A game under way ends first as ``side`` resigning it would (on time: as a timeout),
        so its own points are those the position gives; the opponent's match score is then
        raised to the match length. Between two games, only the match ends."""
        side = _check_side(side)
        if self.phase is Phase.MATCH_OVER:
            raise IllegalActionError("the match is already over")
        state = self
        if not self.is_over:
            state = self.timeout(side) if on_time else self.resign(side)
        winner = self.player_of(side.other)
        score = list(state.score)
        score[winner] = max(score[winner], self.config.length)
        match = replace(state.match_part, score=(score[0], score[1]), last_winner_player=winner)
        return state._with(match=match, game=replace(state.game_part, phase=Phase.MATCH_OVER))

    # ----------------------------------------------------------------- cube
    def double(self) -> GameState:
        if not self.cube_available:
            raise IllegalActionError("doubling is not allowed now")
        return self._with(game=replace(self.game_part, phase=Phase.DOUBLED, turn=self.turn.other))

    def take(self) -> GameState:
        self._require(Phase.DOUBLED, "take")
        game = self.game_part
        return self._with(
            game=replace(
                game,
                phase=Phase.ROLL,
                cube_value=game.cube_value * 2,
                cube_owner=game.turn,
                turn=game.turn.other,
            )
        )

    def drop(self) -> GameState:
        self._require(Phase.DOUBLED, "drop")
        doubler = self.turn.other
        return self._end(doubler, ResultKind.SINGLE, 1, EndReason.DROPPED)

    # ----------------------------------------------------------------- next game
    def next_game(self) -> GameState:
        """Start the next game of the match or series: a fresh game and turn, the match
        moved on (game number, Crawford)."""
        self._require(Phase.GAME_OVER, "start the next game")
        match = self.match_part
        config = match.config
        crawford = (
            config.cube_in_play
            and not config.money
            and not match.crawford_done
            and max(match.score) == config.length - 1
        )
        match = replace(
            match,
            game_number=match.game_number + 1,
            crawford=crawford,
            crawford_done=match.crawford_done or crawford,
        )
        start = B.start(config.variant)
        first = self.rules.next_white_player(config, self.white_player, match.last_winner_player)
        if first is None:  # an opening roll decides who starts
            game = GamePart((start, start), white_player=self.white_player)
        else:
            game = GamePart((start, start), Phase.ROLL, white_player=first)
        return _state(match, game, TurnPart())


def _step_parts(step: object) -> tuple[int, int, int | None]:
    """(src, dst, die) of a Step or a (src, dst[, die]) tuple; die None: any die."""
    if isinstance(step, Step):
        return step.src, step.dst, step.die
    if not (
        isinstance(step, tuple | list)
        and len(step) in (2, 3)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in step)
    ):
        raise InvalidInputError(f"a step is a Step or (src, dst[, die]), got {shown(step)}")
    src, dst, die = (*step, None) if len(step) == 2 else step
    if not (0 <= src <= B.BAR and 0 <= dst <= B.BAR and (die is None or 1 <= die <= 6)):
        # Well-typed but off the board: as illegal as any other step (never printed
        # whole: an int of more than 4,300 digits cannot be turned into text).
        raise IllegalMoveError(f"step {shown(src)}/{shown(dst)} is not legal now")
    return src, dst, die


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
