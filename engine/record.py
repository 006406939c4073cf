"""The record of one game: how it started and every event in order, replayable.

A :class:`GameRecord` holds what is needed to rebuild the game from its first position
(the match settings, the score and Crawford flags at its start, its number and who plays
White) and the events that happened: opening rolls (ties included), rolls, whole plays,
cube actions, resignations, a timeout and the result. Hints, the post-game analysis, the
export and the replay all read games from here, and the verifiable dice count their rolls
from it, so one compact value serves them all.

The bot does not build events by hand: it feeds the record every state transition it
makes (:meth:`GameRecord.follow`), and the record works out which event that was. Offers
to resign that are declined leave no trace in the game state, so they are added with
:meth:`GameRecord.with_declined_resign`.

The document (:meth:`GameRecord.to_doc`) writes each event as a short string, because the
record is saved with the game on every click:

    ``o34``          opening roll: player 0 threw 3, player 1 threw 4 (a tie when equal)
    ``r31``          the side on turn rolled 3 and 1
    ``m24:3,13:1*``  the side on turn played these steps (from point, die; ``*`` = hit);
                     ``m`` alone: no legal play. The target is ``from - die`` or off.
    ``d`` ``t`` ``p``  double, take, pass (drop)
    ``R0g1``         side 0 resigned a gammon (kind's first letter); 1 accepted, 0 declined
    ``T1``           side 1 ran out of time
    ``E0gp2x1``      the end: winner side (``-`` for a draw), kind, reason, points, cube

:meth:`GameRecord.from_doc` checks the document's shape and values only (cheap enough for
every click); :meth:`GameRecord.replay` plays the events through the engine and refuses
the first one that is not legal there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine import board as B
from engine.errors import EngineError, InvalidInputError, shown
from engine.game import EndReason, GameResult, GameState, MatchConfig, Phase
from engine.moves import Play, Step
from engine.serialize import config_from_doc, config_to_doc, replay_steps
from engine.types import ResultKind, Side

RECORD_VERSION = 1
#: A game of backgammon has some hundred events; this bounds what a document may hold.
MAX_EVENTS = 4000


# --------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """One die per player (``dice[0]`` is player 0's); equal dice are a tie, rolled again."""

    dice: tuple[int, int]

    @property
    def tie(self) -> bool:
        return self.dice[0] == self.dice[1]


@dataclass(frozen=True, slots=True)
class Roll:
    """The side on turn rolled these two dice."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """The side on turn played these steps (its own numbering); empty: no legal play."""

    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Double:
    """The side on turn offered the cube."""


@dataclass(frozen=True, slots=True)
class Take:
    """The doubled side took the cube."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The doubled side passed, and lost the game at the old cube value."""


@dataclass(frozen=True, slots=True)
class Resign:
    """``side`` offered to resign at ``kind``; the opponent ``accepted`` it or not."""

    side: Side
    kind: ResultKind
    accepted: bool


@dataclass(frozen=True, slots=True)
class Timeout:
    """``side`` ran out of time and lost the game."""

    side: Side


@dataclass(frozen=True, slots=True)
class End:
    """How the game ended; always the last event of a finished game."""

    result: GameResult


Event = OpeningRoll | Roll | Move | Double | Take | Drop | Resign | Timeout | End


class DecisionKind(StrEnum):
    """What a player decides: a checker play, to double or not, to take or pass, to accept
    an offer to resign. A record's decisions (:meth:`GameRecord.decisions`) are of the first
    three kinds; the last is only asked (of the computer, ``engine.ai.accept_resignation``)."""

    PLAY = "play"  # which play for the roll (Phase.MOVE)
    DOUBLE = "double"  # double before rolling? (Phase.ROLL)
    TAKE = "take"  # take the double offered? (Phase.DOUBLED)
    RESIGN = "resign"  # accept the opponent's offer to resign? (any phase of a game)


@dataclass(frozen=True, slots=True)
class RecordedDecision:
    """One decision of the game and what was chosen.

    ``state`` is where it was made: phase MOVE with the dice rolled and no step played
    (``chosen`` the :class:`Play` made), phase ROLL with the cube available (``chosen``
    True for a double), or phase DOUBLED (``chosen`` True for a take).
    """

    state: GameState
    kind: DecisionKind
    chosen: Play | bool

    @property
    def side(self) -> Side:
        """Who decided (the side on turn)."""
        return self.state.turn


# --------------------------------------------------------------------------- the record
@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its starting conditions and its events in order (see the module doc)."""

    config: MatchConfig
    score: tuple[int, int] = (0, 0)  # per player, at the game's start
    crawford: bool = False  # this game is the Crawford game
    crawford_done: bool = False  # the Crawford game has been played (or is this one)
    game_number: int = 1
    white_player: int = 0  # who plays White (long: may be set by the opening roll)
    opening: bool = True  # False: a long series game whose starter was set by the rules
    events: tuple[Event, ...] = ()

    # ----------------------------------------------------------------- building
    @classmethod
    def start(cls, state: GameState) -> GameRecord:
        """An empty record for the game ``state`` is about to begin (before its first roll)."""
        if state.phase not in (Phase.OPENING, Phase.ROLL) or state.has_moved != (False, False):
            raise InvalidInputError("a record starts before the game's first roll")
        if state.dice is not None or state.cube_value != 1:
            raise InvalidInputError("a record starts before the game's first roll")
        return cls(
            config=state.config,
            score=state.score,
            crawford=state.crawford,
            crawford_done=state.crawford_done,
            game_number=state.game_number,
            white_player=state.white_player,
            opening=state.phase is Phase.OPENING,
        )

    def initial_state(self) -> GameState:
        """The game's state before its first event."""
        start = B.start(self.config.variant)
        return GameState(
            config=self.config,
            checkers=(start, start),
            phase=Phase.OPENING if self.opening else Phase.ROLL,
            white_player=self.white_player,
            crawford=self.crawford,
            crawford_done=self.crawford_done,
            score=self.score,
            game_number=self.game_number,
        )

    def with_event(self, event: Event) -> GameRecord:
        if self.finished:
            raise InvalidInputError("the game's record is closed: it has its result")
        return replace(self, events=(*self.events, event))

    def with_declined_resign(self, side: Side, kind: ResultKind) -> GameRecord:
        """Note an offer to resign that the opponent refused (the game goes on)."""
        return self.with_event(Resign(Side(side), kind, accepted=False))

    def follow(self, before: GameState, after: GameState) -> GameRecord:
        """The record with the events of one engine transition ``before`` -> ``after``.

        ``after`` must come from ``before`` by one engine action (a roll, a whole play or
        its confirmation, a cube action, a resignation, a timeout), or by steps and
        take-backs within a turn, which record nothing until the turn is confirmed. A
        transition into another game (``next_game``, a new match) records nothing either:
        the caller starts a new record there. Passing the same object twice (a caption
        change) records nothing; a new object equal to ``before`` in the opening is a
        repeated tie.
        """
        if after is before or self.finished:
            return self
        if after.game_number != before.game_number or (
            before.is_over and after.phase is Phase.OPENING
        ):
            return self
        events = _transition(before, after)
        return replace(self, events=(*self.events, *events)) if events else self

    # ----------------------------------------------------------------- reading
    @property
    def finished(self) -> bool:
        return bool(self.events) and isinstance(self.events[-1], End)

    @property
    def result(self) -> GameResult | None:
        last = self.events[-1] if self.events else None
        return last.result if isinstance(last, End) else None

    @property
    def dice_count(self) -> int:
        """How many dice the game has used so far (two per opening roll and per roll)."""
        return sum(2 for e in self.events if isinstance(e, OpeningRoll | Roll))

    @property
    def dice(self) -> list[int]:
        """Every die of the game in the order thrown (each opening roll: player 0's first)."""
        out: list[int] = []
        for e in self.events:
            if isinstance(e, OpeningRoll | Roll):
                out.extend(e.dice)
        return out

    def replay(self) -> Iterator[tuple[GameState, Event]]:
        """Each event with the state just before it, checking each one through the engine.

        Raises InvalidInputError at the first event the engine refuses or that disagrees
        with it (a step played differently, a result other than the engine's).
        """
        for state, event, _ in self._walk():
            yield state, event

    def final_state(self) -> GameState:
        """The state after the last event (replayed and checked)."""
        state = self.initial_state()
        for _, _, after in self._walk():
            state = after
        return state

    def _walk(self) -> Iterator[tuple[GameState, Event, GameState]]:
        state = self.initial_state()
        for index, event in enumerate(self.events):
            try:
                after = _apply(state, event)
            except EngineError as exc:
                raise InvalidInputError(f"event {index} ({_encode(event)}): {exc}") from None
            yield state, event, after
            state = after

    def decisions(self) -> list[RecordedDecision]:
        """The game's checker plays and cube decisions, each with where it was made.

        A turn without a legal play is no decision; a forced play is one (with a single
        choice). A roll after a turn on which the cube was available records a decision
        not to double.
        """
        out: list[RecordedDecision] = []
        for before, event, after in self._walk():
            if isinstance(event, Move) and event.steps:
                me = before.turn
                play = Play(event.steps, after.checkers[me], after.checkers[me.other])
                out.append(RecordedDecision(before, DecisionKind.PLAY, play))
            elif isinstance(event, Roll) and before.cube_available:
                out.append(RecordedDecision(before, DecisionKind.DOUBLE, False))
            elif isinstance(event, Double):
                out.append(RecordedDecision(before, DecisionKind.DOUBLE, True))
            elif isinstance(event, Take | Drop):
                out.append(RecordedDecision(before, DecisionKind.TAKE, isinstance(event, Take)))
        return out

    # ----------------------------------------------------------------- documents
    def to_doc(self) -> dict[str, Any]:
        c = self.config
        return {
            "v": RECORD_VERSION,
            "cfg": config_to_doc(c),
            "sc": list(self.score),
            "cr": [int(self.crawford), int(self.crawford_done)],
            "gn": self.game_number,
            "wp": self.white_player,
            "op": int(self.opening),
            "ev": [_encode(e) for e in self.events],
        }

    @classmethod
    def from_doc(cls, doc: Any) -> GameRecord:
        """Read a document of :meth:`to_doc`; anything malformed raises InvalidInputError."""
        if not isinstance(doc, dict):
            raise InvalidInputError("a game record must be a JSON object")
        if doc.get("v") != RECORD_VERSION or isinstance(doc.get("v"), bool):
            raise InvalidInputError(f"unsupported game record version {shown(doc.get('v'))}")
        try:
            return _from_doc(doc)
        except KeyError as exc:
            raise InvalidInputError(f"malformed game record: missing {exc}") from None
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"malformed game record: {exc}") from None


# --------------------------------------------------------------------------- transitions
def _transition(before: GameState, after: GameState) -> list[Event]:
    """The events that lead from ``before`` to ``after`` (one engine action)."""
    events: list[Event] = []
    result = after.result if after.is_over and not before.is_over else None
    loser = None if result is None or result.winner is None else result.winner.other
    if result is not None and loser is not None and result.reason is EndReason.RESIGNED:
        events.append(Resign(loser, result.kind, accepted=True))
    elif result is not None and loser is not None and result.reason is EndReason.TIMEOUT:
        events.append(Timeout(loser))
    elif before.phase is Phase.OPENING:
        if after.opening_roll is not None:
            events.append(OpeningRoll(after.opening_roll))
    elif before.phase is Phase.ROLL and after.phase is Phase.MOVE:
        assert after.dice is not None
        events.append(Roll(after.dice))
    elif before.phase is Phase.ROLL and after.phase is Phase.DOUBLED:
        events.append(Double())
    elif before.phase is Phase.DOUBLED:
        events.append(Drop() if result is not None else Take())
    elif before.phase is Phase.MOVE and after.phase is not Phase.MOVE:
        assert after.last_play is not None
        events.append(Move(after.last_play.steps))
    if result is not None:
        events.append(End(result))
    return events


def _apply(state: GameState, event: Event) -> GameState:
    """The engine action of ``event`` on ``state``, checked against what was recorded."""
    if isinstance(event, OpeningRoll):
        return state.roll_opening(*event.dice)
    if isinstance(event, Roll):
        return state.roll(*event.dice)
    if isinstance(event, Move):
        return _move(state, event.steps)
    if isinstance(event, Double):
        return state.double()
    if isinstance(event, Take):
        return state.take()
    if isinstance(event, Drop):
        return state.drop()
    if isinstance(event, Resign):
        return state.resign(event.side, event.kind) if event.accepted else state
    if isinstance(event, Timeout):
        return state.timeout(event.side)
    if not state.is_over or state.result != event.result:
        raise InvalidInputError(f"the recorded result differs from the game's ({state.result})")
    return state


def _move(state: GameState, steps: tuple[Step, ...]) -> GameState:
    if state.phase is Phase.MOVE and state.steps:
        raise InvalidInputError("a play starts from the turn's first step")
    return replay_steps(state, steps).confirm()


# --------------------------------------------------------------------------- encoding
_KIND_CODE = {k: k.value[0] for k in ResultKind}  # s g b o m d: first letters differ
_CODE_KIND = {v: k for k, v in _KIND_CODE.items()}
_REASON_CODE = {
    EndReason.PLAYED: "p",
    EndReason.RESIGNED: "r",
    EndReason.DROPPED: "d",
    EndReason.TIMEOUT: "t",
    EndReason.LAST_ROLL: "l",
}
_CODE_REASON = {v: k for k, v in _REASON_CODE.items()}
_CUBE_EVENTS: dict[str, Event] = {"d": Double(), "t": Take(), "p": Drop()}
_STEP = re.compile(r"([1-9]|1[0-9]|2[0-5]):([1-6])(\*?)")
_END = re.compile(r"E([01-])([sgbomd])([prdtl])(\d{1,3})x(\d{1,2})")


def _encode(event: Event) -> str:
    match event:
        case OpeningRoll(dice=(a, b)):
            return f"o{a}{b}"
        case Roll(dice=(a, b)):
            return f"r{a}{b}"
        case Move(steps=steps):
            return "m" + ",".join(f"{s.src}:{s.die}{'*' if s.hit else ''}" for s in steps)
        case Double():
            return "d"
        case Take():
            return "t"
        case Drop():
            return "p"
        case Resign(side=side, kind=kind, accepted=accepted):
            return f"R{int(side)}{_KIND_CODE[kind]}{int(accepted)}"
        case Timeout(side=side):
            return f"T{int(side)}"
        case End(result=r):
            winner = "-" if r.winner is None else str(int(r.winner))
            return f"E{winner}{_KIND_CODE[r.kind]}{_REASON_CODE[r.reason]}{r.points}x{r.cube}"
    raise InvalidInputError(f"not a record event: {shown(event)}")


def _decode(text: Any) -> Event:
    if not isinstance(text, str) or not text or len(text) > 64:
        raise InvalidInputError(f"an event is a short string, got {shown(text)}")
    head, rest = text[0], text[1:]
    if head in "or" and re.fullmatch(r"[1-6][1-6]", rest):
        dice = (int(rest[0]), int(rest[1]))
        return OpeningRoll(dice) if head == "o" else Roll(dice)
    if head == "m":
        return Move(_decode_steps(rest))
    if text in _CUBE_EVENTS:
        return _CUBE_EVENTS[text]
    if head == "R" and re.fullmatch(r"[01][sgbom][01]", rest):
        return Resign(Side(int(rest[0])), _CODE_KIND[rest[1]], rest[2] == "1")
    if head == "T" and rest in ("0", "1"):
        return Timeout(Side(int(rest)))
    if m := _END.fullmatch(text):
        w, kind, reason, points, cube = m.groups()
        winner = None if w == "-" else Side(int(w))
        if (winner is None) != (kind == "d") or int(cube) not in (1, 2, 4, 8, 16, 32, 64):
            raise InvalidInputError(f"not a result: {shown(text)}")
        return End(
            GameResult(winner, _CODE_KIND[kind], int(points), _CODE_REASON[reason], int(cube))
        )
    raise InvalidInputError(f"not a record event: {shown(text)}")


def _decode_steps(text: str) -> tuple[Step, ...]:
    if not text:
        return ()
    parts = text.split(",")
    if len(parts) > 4:
        raise InvalidInputError("at most four steps in a play")
    steps = []
    for part in parts:
        m = _STEP.fullmatch(part)
        if m is None:
            raise InvalidInputError(f"not a step: {shown(part)}")
        src, die = int(m.group(1)), int(m.group(2))
        steps.append(Step(src, src - die if src > die else 0, die, bool(m.group(3))))
    return tuple(steps)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise InvalidInputError(f"{what} must be an integer from {lo} to {hi}")
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise InvalidInputError(f"{what} must be 0 or 1")
    return bool(value)


def _list(value: Any, what: str, length: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise InvalidInputError(f"{what} must be a list of {length}")
    return value


def _from_doc(doc: dict[str, Any]) -> GameRecord:
    config = config_from_doc(doc["cfg"])
    a, b = (_int(n, "score", 0, 10**6) for n in _list(doc["sc"], "score", 2))
    if max(a, b) >= config.goal:
        raise InvalidInputError("the match was over before this game")
    crawford, crawford_done = (_flag(f, "crawford") for f in _list(doc["cr"], "crawford", 2))
    events = doc["ev"]
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise InvalidInputError(f"events must be a list of at most {MAX_EVENTS}")
    decoded = tuple(_decode(e) for e in events)
    if any(isinstance(e, End) for e in decoded[:-1]):
        raise InvalidInputError("the result must be the last event")
    return GameRecord(
        config=config,
        score=(a, b),
        crawford=crawford,
        crawford_done=crawford_done,
        game_number=_int(doc["gn"], "game number", 1, 10**9),
        white_player=_int(doc["wp"], "white player", 0, 1),
        opening=_flag(doc["op"], "opening"),
        events=decoded,
    )
