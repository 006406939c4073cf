"""A chat's table: the engine's game state plus who sits at it and the table settings.

The engine knows colours and players 0/1; the table knows which Telegram users they are,
whether player 1 is the computer, the turn time limit, and the notes of the last events
for the caption. It is stored as one JSON document: the engine's own document with a
``tbl`` key added, so storage sees the engine's schema version at the top level.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.game.dice import DiceProof
from engine import (
    GameRecord,
    GameState,
    InvalidInputError,
    Phase,
    ResultKind,
    SeededDice,
    Side,
    format_steps,
    from_dict,
    to_dict,
)

#: The computer opponent's user id (Telegram ids are positive).
COMPUTER_ID = 0
MAX_NOTES = 6


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    name: str

    @property
    def is_computer(self) -> bool:
        return self.user_id == COMPUTER_ID


class OfferStage(StrEnum):
    """Where an offer to resign stands. The last five are closed: kept only so the prompt
    message can be tidied with the right words, and replaced by the next offer."""

    ASKED = "ask"  # the resigner chooses a level (classic) or confirms (long)
    OFFERED = "offer"  # classic: the opponent accepts or declines
    ACCEPTED = "acc"  # the game ended with this resignation
    DECLINED = "dec"  # the opponent declined: play goes on
    CANCELLED = "can"  # the resigner changed their mind
    LEFT = "left"  # the resigner left the whole match or series (forfeited it)
    WITHDRAWN = "wd"  # the resigner played on instead
    MOOT = "moot"  # the game ended another way


OPEN_STAGES = frozenset({OfferStage.ASKED, OfferStage.OFFERED})


@dataclass(frozen=True, slots=True)
class ResignOffer:
    """One player's offer to resign, and the message where it is asked and answered.

    ``kind`` and ``points`` are the result as announced (points after the cube): what the
    prompt says is what is charged. In long they are fixed when the resigner asks; in
    classic when the resigner chooses the level.
    """

    player: int  # index of the resigner in Table.players
    stage: OfferStage
    game_number: int
    kind: ResultKind | None = None
    points: int = 0
    message_id: int | None = None
    between_games: bool = False  # asked between two games: only the match can be left

    @property
    def is_open(self) -> bool:
        return self.stage in OPEN_STAGES

    def to_doc(self) -> dict[str, Any]:
        return {
            "p": self.player,
            "s": self.stage.value,
            "g": self.game_number,
            "k": None if self.kind is None else self.kind.value,
            "pt": self.points,
            "m": self.message_id,
            **({"bg": True} if self.between_games else {}),
        }

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> ResignOffer:
        message = doc.get("m")
        return cls(
            player=int(doc["p"]),
            stage=OfferStage(doc["s"]),
            game_number=int(doc["g"]),
            kind=None if doc.get("k") is None else ResultKind(doc["k"]),
            points=int(doc.get("pt", 0)),
            message_id=None if message is None else int(message),
            between_games=bool(doc.get("bg", False)),
        )


@dataclass(frozen=True)
class Table:
    state: GameState
    players: tuple[Player, Player]
    ai_level: str | None = None  # set when player 1 is the computer
    turn_seconds: int | None = 600
    resign: ResignOffer | None = None  # the latest offer to resign (open or just closed)
    notes: tuple[str, ...] = field(default=())
    rolls: int = 0  # dice rolled so far in this table's life: tells one turn from the next
    turn_version: int = 0  # the stored version at which the current roll was first saved
    hints: bool = False  # both players agreed to hints (always available against the computer)
    shared_analysis: bool = False  # both agreed the post-game analysis goes to the group
    record: GameRecord | None = None  # the current game's record (the last one, when over)
    dice: DiceProof | None = None  # the current game's verifiable dice (None: not seeded)
    next_commitment: str | None = None  # shown with a result: the next game's commitment
    inline_message: str | None = None  # set when the table lives in an inline message
    topic: tuple[int, int] | None = None  # (chat id, thread id) when it lives in a forum topic
    group: int | None = None  # the group of a further table of a group (see places)
    deadline: float | None = None  # when the turn's time runs out (epoch seconds), shown
    last_plays: tuple[str, str] = ("", "")  # per player: their last play ("6-4 24/14"), shown
    # The stored version the board on screen still shows while only a resign prompt has
    # changed since (the board is left untouched until the offer is answered), else None.
    board_base: int | None = None

    # ------------------------------------------------------------------ who is who
    def player_at(self, side: Side) -> Player:
        return self.players[self.state.player_of(side)]

    def index_of(self, user_id: int) -> int | None:
        for i, p in enumerate(self.players):
            if p.user_id == user_id:
                return i
        return None

    @property
    def actor(self) -> Player:
        """The player who must act now (the side on turn)."""
        return self.player_at(self.state.turn)

    @property
    def vs_computer(self) -> bool:
        return self.ai_level is not None

    @property
    def hints_allowed(self) -> bool:
        """May the player on turn ask for a hint? Against the computer always; between
        people only when both agreed at the challenge."""
        return self.vs_computer or self.hints

    @property
    def open_offer(self) -> ResignOffer | None:
        """The offer to resign still waiting for an answer, if any."""
        offer = self.resign
        return offer if offer is not None and offer.is_open else None

    def with_offer_stage(self, stage: OfferStage) -> Table:
        """The open offer moved to ``stage`` (unchanged when no offer is open)."""
        offer = self.open_offer
        if offer is None:
            return self
        record = self.record
        if (
            stage is OfferStage.DECLINED
            and offer.kind is not None
            and record is not None
            and not record.finished
        ):
            side = self.state.side_of(offer.player)
            record = record.with_declined_resign(side, offer.kind)
        return replace(self, resign=replace(offer, stage=stage), record=record)

    def only_offer_changed(self, before: Table) -> bool:
        """Did going from ``before`` to this table change nothing the board shows (only the
        offer to resign, which its own prompt shows)?"""
        return (
            self.state == before.state
            and self.notes == before.notes
            and self.rolls == before.rolls
            and self.resign != before.resign
        )

    # ------------------------------------------------------------------ updates
    def with_state(self, state: GameState, *notes: str) -> Table:
        return replace(
            self,
            state=state,
            notes=(*self.notes, *notes)[-MAX_NOTES:],
            record=self._recorded(state),
            last_plays=self._last_plays(state),
        )

    def _last_plays(self, state: GameState) -> tuple[str, str]:
        """Each player's last play after the table moves to ``state`` (a new game forgets
        the plays of the one before)."""
        plays = list(self.last_plays)
        if state.game_number != self.state.game_number:
            plays = ["", ""]
        played = state.last_play
        if played is not None and played != self.state.last_play:
            dice = f"{max(played.dice)}-{min(played.dice)} " if played.dice else ""
            plays[state.player_of(played.side)] = dice + (format_steps(played.steps) or "—")
        return (plays[0], plays[1])

    def fresh_notes(self, *notes: str) -> Table:
        return replace(self, notes=tuple(notes)[-MAX_NOTES:])

    def rolled(self, state: GameState) -> Table:
        """The table after a roll of the dice (a new turn begins)."""
        return replace(self, state=state, rolls=self.rolls + 1, record=self._recorded(state))

    def _recorded(self, state: GameState) -> GameRecord | None:
        """The record after the table moves to ``state``: the transition is followed, and a
        record starts with each game (a game already under way when a table had no record,
        e.g. one saved by an older version, stays unrecorded)."""
        before, record = self.state, self.record
        if (
            record is not None
            and record.game_number == state.game_number
            and not (before.is_over and not state.is_over)
        ):
            return record.follow(before, state)
        if _fresh(before) and before.game_number == state.game_number:
            return GameRecord.start(before).follow(before, state)
        if _fresh(state):
            return GameRecord.start(state)
        return None

    def with_dice(self, proof: DiceProof | None) -> Table:
        """The table with the verifiable dice of the game about to start (its record starts
        here too: the record counts the dice used)."""
        record = GameRecord.start(self.state) if _fresh(self.state) else self.record
        return replace(self, dice=proof, next_commitment=None, record=record)

    def seeded_dice(self) -> SeededDice | None:
        """The game's committed dice from the next unused one on, or None without a seed
        (or without the record that counts the dice already used)."""
        if self.dice is None or self.record is None:
            return None
        return self.dice.source(self.record.dice_count)

    # ------------------------------------------------------------------ (de)serialisation
    def to_doc(self) -> dict[str, Any]:
        doc = to_dict(self.state)
        doc["tbl"] = {
            "pl": [[p.user_id, p.name] for p in self.players],
            "ai": self.ai_level,
            "ts": self.turn_seconds,
            "rs": None if self.resign is None else self.resign.to_doc(),
            "nt": list(self.notes),
            "rc": self.rolls,
            "tv": self.turn_version,
            "hi": self.hints,
            "an": self.shared_analysis,
        }
        if self.record is not None:
            doc["tbl"]["rec"] = self.record.to_doc()
        if self.dice is not None:
            doc["tbl"]["dp"] = self.dice.to_doc()
        if self.next_commitment is not None:
            doc["tbl"]["nc"] = self.next_commitment
        if self.inline_message is not None:
            doc["tbl"]["im"] = self.inline_message
        if self.topic is not None:
            doc["tbl"]["tp"] = list(self.topic)
        if self.group is not None:
            doc["tbl"]["gr"] = self.group
        if self.deadline is not None:
            doc["tbl"]["dl"] = self.deadline
        if any(self.last_plays):
            doc["tbl"]["lp"] = list(self.last_plays)
        if self.board_base is not None:
            doc["tbl"]["bb"] = self.board_base
        return doc

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Table:
        state = from_dict(doc)
        try:
            t = doc["tbl"]
            players = tuple(Player(int(uid), str(name)) for uid, name in t["pl"])
            if len(players) != 2:
                raise ValueError("two players expected")
            return cls(
                state=state,
                players=(players[0], players[1]),
                ai_level=t.get("ai"),
                turn_seconds=t.get("ts"),
                resign=None if t.get("rs") is None else ResignOffer.from_doc(t["rs"]),
                notes=tuple(str(n) for n in t.get("nt", [])),
                rolls=int(t.get("rc", 0)),
                turn_version=int(t.get("tv", 0)),
                hints=bool(t.get("hi", False)),
                shared_analysis=bool(t.get("an", False)),
                record=None if t.get("rec") is None else GameRecord.from_doc(t["rec"]),
                dice=None if t.get("dp") is None else DiceProof.from_doc(t["dp"]),
                next_commitment=None if t.get("nc") is None else str(t["nc"]),
                inline_message=None if t.get("im") is None else str(t["im"]),
                topic=None if t.get("tp") is None else (int(t["tp"][0]), int(t["tp"][1])),
                group=None if t.get("gr") is None else int(t["gr"]),
                deadline=None if t.get("dl") is None else float(t["dl"]),
                last_plays=_pair(t.get("lp")),
                board_base=None if t.get("bb") is None else int(t["bb"]),
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InvalidInputError(f"malformed table document: {exc}") from None


def _pair(value: Any) -> tuple[str, str]:
    """Two strings from a document's list (empty when absent)."""
    if value is None:
        return ("", "")
    first, second = value
    return (str(first), str(second))


def _fresh(state: GameState) -> bool:
    """Is ``state`` a game before its first roll (where a record can start)?"""
    return (
        state.phase in (Phase.OPENING, Phase.ROLL)
        and state.opening_roll is None
        and state.has_moved == (False, False)
        and state.cube_value == 1
    )
