"""A chat's table: the engine's game state plus who sits at it and the table settings.

The engine knows colours and players 0/1; the table knows which Telegram users they are,
whether player 1 is the computer, the turn time limit, and the notes of the last events
for the caption. It is stored as one JSON document: the engine's own document with a
``tbl`` key added, so storage sees the engine's schema version at the top level.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import GameState, Side
from engine.errors import InvalidInputError
from engine.serialize import from_dict, to_dict

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


@dataclass(frozen=True)
class Table:
    state: GameState
    players: tuple[Player, Player]
    ai_level: str | None = None  # set when player 1 is the computer
    turn_seconds: int | None = 600
    resign_pending: int | None = None  # player index who asked to resign, awaiting "Sì"
    notes: tuple[str, ...] = field(default=())
    rolls: int = 0  # dice rolled so far in this table's life: tells one turn from the next
    turn_version: int = 0  # the stored version at which the current roll was first saved

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

    # ------------------------------------------------------------------ updates
    def with_state(self, state: GameState, *notes: str) -> Table:
        return replace(self, state=state, notes=(*self.notes, *notes)[-MAX_NOTES:])

    def fresh_notes(self, *notes: str) -> Table:
        return replace(self, notes=tuple(notes)[-MAX_NOTES:])

    def rolled(self, state: GameState) -> Table:
        """The table after a roll of the dice (a new turn begins)."""
        return replace(self, state=state, rolls=self.rolls + 1)

    # ------------------------------------------------------------------ (de)serialisation
    def to_doc(self) -> dict[str, Any]:
        doc = to_dict(self.state)
        doc["tbl"] = {
            "pl": [[p.user_id, p.name] for p in self.players],
            "ai": self.ai_level,
            "ts": self.turn_seconds,
            "rp": self.resign_pending,
            "nt": list(self.notes),
            "rc": self.rolls,
            "tv": self.turn_version,
        }
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
                resign_pending=t.get("rp"),
                notes=tuple(str(n) for n in t.get("nt", [])),
                rolls=int(t.get("rc", 0)),
                turn_version=int(t.get("tv", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInputError(f"malformed table document: {exc}") from None
