"""A match as the export formats see it: per game, the players' actions in order.

The record of a game (every event, with the states between them) is richer than a match
file needs; the export formats only say who did what: a roll and the steps played with
it, a double, a take, a drop, and how the game ended. ``MatchTranscript`` is that view,
and ``replay_game`` walks it through the engine, so a transcript read back from a file is
checked move by move against the rules before anyone trusts it.

Players are 0 and 1 as in :class:`GameState` (player 0 is written first, the file's
"Player 1"); steps are in the mover's own numbering, 25 the bar and 0 off.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Protocol

from engine.errors import EngineError, InvalidInputError
from engine.game import EndReason, GameState, MatchConfig, Phase
from engine.moves import Step


class ActionKind(StrEnum):
    MOVE = "move"  # dice rolled and played (possibly no step at all: no legal move)
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"


#: A step as a match file writes it: from, to, and whether it hit (no die: the file
#: does not say which die moved a checker, only the points).
Move = tuple[int, int, bool]


@dataclass(frozen=True, slots=True)
class TranscriptAction:
    """One player's turn at the table, as a match file has it on one half of a line."""

    player: int
    kind: ActionKind
    dice: tuple[int, int] | None = None  # MOVE only
    steps: tuple[Step, ...] = ()  # MOVE only, in the order they were made
    cube: int = 0  # DOUBLE only: the value offered

    @property
    def moves(self) -> tuple[Move, ...]:
        """The steps without their dice: what a match file can say of them."""
        return tuple((s.src, s.dst, s.hit) for s in self.steps)


@dataclass(frozen=True, slots=True)
class GameTranscript:
    """One game: its number, the score at its start (per player), the actions, the end.

    ``winner`` is None only for a draw (long, last roll); ``points`` are what the game
    scored after the cube.
    """

    number: int
    score: tuple[int, int]
    actions: tuple[TranscriptAction, ...]
    winner: int | None
    points: int

    @property
    def plays(self) -> tuple[TranscriptAction, ...]:
        """The checker plays alone (the actions of kind MOVE)."""
        return tuple(a for a in self.actions if a.kind is ActionKind.MOVE)


@dataclass(frozen=True, slots=True)
class MatchTranscript:
    """The games of a match or series, with the settings and the players' names."""

    config: MatchConfig
    names: tuple[str, str]
    games: tuple[GameTranscript, ...]
    date: datetime.date | None = None


def action_of(before: GameState, after: GameState) -> TranscriptAction | None:
    """The action that took ``before`` to ``after``, or None when the transition was no
    action a match file writes (an opening roll, a roll alone, a single step, an end by
    resignation or time).

    Lets whoever walks a game's states (a record's replay, a test's random game) build
    the transcript without knowing the formats.
    """
    player = before.player_of(before.turn)
    conceded = after.result is not None and after.result.reason in _CONCEDED
    if before.phase is Phase.MOVE and after.phase is not Phase.MOVE and not conceded:
        assert before.dice is not None and after.last_play is not None
        return TranscriptAction(player, ActionKind.MOVE, before.dice, after.last_play.steps)
    if before.phase is Phase.ROLL and after.phase is Phase.DOUBLED:
        return TranscriptAction(player, ActionKind.DOUBLE, cube=before.cube_value * 2)
    if before.phase is Phase.DOUBLED and after.phase is Phase.ROLL:
        return TranscriptAction(player, ActionKind.TAKE)
    if before.phase is Phase.DOUBLED and after.is_over and not conceded:
        return TranscriptAction(player, ActionKind.DROP)
    return None


_CONCEDED = (EndReason.RESIGNED, EndReason.TIMEOUT)


class Recorded(Protocol):
    """What a game's record offers (``engine.record.GameRecord``): its events replayed
    with the state before each one, and the state after the last."""

    def replay(self) -> Iterator[tuple[GameState, object]]: ...

    def final_state(self) -> GameState: ...


def record_transcript(record: Recorded) -> tuple[GameState, GameTranscript]:
    """A finished game's record as its starting state and its transcript."""
    states = [before for before, _ in record.replay()]
    final = record.final_state()
    return (states[0] if states else final), game_transcript([*states, final])


def game_transcript(states: Sequence[GameState]) -> GameTranscript:
    """The transcript of one finished game from its states in order (the first at its
    start, the last at its end; any states between, as long as each action's states
    before and after are among them)."""
    if not states or not states[-1].is_over:
        raise InvalidInputError("a transcript needs the states of a finished game")
    actions = [a for b, c in pairwise(states) if (a := action_of(b, c)) is not None]
    final = states[-1]
    result = final.result
    assert result is not None
    winner = None if result.winner is None else final.player_of(result.winner)
    return GameTranscript(final.game_number, states[0].score, tuple(actions), winner, result.points)


def _opening(state: GameState, first: TranscriptAction) -> GameState:
    """Settle who starts: classic plays the opening roll as the first move's dice, long
    rolls one die each (any pair with the starter higher) and then the starter's dice."""
    if state.phase is not Phase.OPENING:
        if state.player_of(state.turn) != first.player:
            raise InvalidInputError(f"game {state.game_number}: the wrong player starts")
        return state
    if first.kind is not ActionKind.MOVE or first.dice is None:
        raise InvalidInputError(f"game {state.game_number}: it must start with a roll")
    d1, d2 = first.dice
    if state.rules.opening_is_played:
        if d1 == d2:
            raise InvalidInputError(f"game {state.game_number}: an opening roll is not a double")
        high, low = max(d1, d2), min(d1, d2)
        return state.roll_opening(*((high, low) if first.player == 0 else (low, high)))
    return state.roll_opening(*((2, 1) if first.player == 0 else (1, 2)))


def _play(state: GameState, steps: Sequence[Move]) -> GameState | None:
    """Make ``steps`` (from, to, hit) one by one, trying each die that fits, until they
    form a complete legal play; None when no choice of dice makes them one."""
    if not steps:
        return state if state.play_complete else None
    src, dst, hit = steps[0]
    dice = {s.die for s in state.legal_steps() if s.src == src and s.dst == dst and s.hit == hit}
    for die in sorted(dice, reverse=True):
        done = _play(state.step((src, dst, die)), steps[1:])
        if done is not None:
            return done
    return None


def replay_game(
    start: GameState, game: GameTranscript
) -> Iterator[tuple[GameState, TranscriptAction | None]]:
    """Play ``game`` from ``start`` (a state at the game's opening, or in ROLL when the
    series fixed the starter), yielding each state after an action with the action, and
    the final state with None when the game ended by resignation or time.

    Raises InvalidInputError at the first action the rules refuse, or when the game's
    stated end does not follow from its actions.
    """
    if start.score != game.score:
        raise InvalidInputError(f"game {game.number}: the score does not follow the games before")
    state = start
    for i, action in enumerate(game.actions):
        where = f"game {game.number}, action {i + 1}"
        if state.is_over:
            raise InvalidInputError(f"{where}: the game is already over")
        if i == 0:
            state = _opening(state, action)
        if state.player_of(state.turn) != action.player:
            raise InvalidInputError(f"{where}: it is the other player's turn")
        try:
            state = _act(state, action, where)
        except EngineError as error:
            raise InvalidInputError(f"{where}: {error}") from None
        yield state, action
    if not state.is_over:
        state = _concede(state, game)
        yield state, None
    result = state.result
    assert result is not None
    winner = None if result.winner is None else state.player_of(result.winner)
    if (winner, result.points) != (game.winner, game.points):
        raise InvalidInputError(f"game {game.number}: the stated result does not match the play")


def _act(state: GameState, action: TranscriptAction, where: str) -> GameState:
    if action.kind is ActionKind.MOVE:
        if action.dice is None:
            raise InvalidInputError(f"{where}: a move needs its dice")
        if state.phase is Phase.ROLL:
            state = state.roll(*action.dice)
        elif state.phase is not Phase.MOVE or sorted(state.dice or ()) != sorted(action.dice):
            raise InvalidInputError(f"{where}: no roll of {action.dice} now")
        done = _play(state, [(s.src, s.dst, s.hit) for s in action.steps])
        if done is None:
            raise InvalidInputError(f"{where}: the play is not legal with these dice")
        return done.confirm()
    if action.kind is ActionKind.DOUBLE:
        state = state.double()
        if action.cube and action.cube != state.cube_value * 2:
            raise InvalidInputError(f"{where}: the cube goes to {state.cube_value * 2}")
        return state
    if action.kind is ActionKind.TAKE:
        return state.take()
    return state.drop()


def _concede(state: GameState, game: GameTranscript) -> GameState:
    """A game that stops before its end was resigned (or lost on time): find the level
    whose points match the stated result."""
    if game.winner is None:
        raise InvalidInputError(f"game {game.number}: it stops before its end without a winner")
    loser = state.side_of(1 - game.winner)
    if state.phase is Phase.OPENING:
        return state.timeout(loser)
    for level in state.resign_levels(loser):
        if level.points == game.points:
            return state.resign(loser, level.kind)
    if state.resign_value(loser).points == game.points:
        return state.resign(loser)
    raise InvalidInputError(f"game {game.number}: no resignation scores {game.points}")


def replay_match(
    match: MatchTranscript,
) -> Iterator[tuple[int, GameState, TranscriptAction | None]]:
    """Every game of ``match`` through the engine: (game index, state after, action)."""
    state = GameState.new_match(match.config)
    for index, game in enumerate(match.games):
        if index:
            if state.phase is not Phase.GAME_OVER:
                raise InvalidInputError(f"game {game.number}: the match was already over")
            state = state.next_game()
        for after, action in replay_game(state, game):
            state = after  # the next game starts from this one's end
            yield index, after, action
