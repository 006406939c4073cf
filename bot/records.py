"""The chat's last finished game as the analysis needs it: its record and its table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.services import Services
from bot.table import Table
from engine import GameState


@dataclass(frozen=True)
class LastGame:
    """A finished game: the table it was played at (players, options), a state of that
    game (its variant, number and cube settings), and its record's document."""

    table: Table
    state: GameState
    record_doc: dict[str, Any]


async def last_game(svc: Services, chat_id: int) -> LastGame | None:
    """The chat's last finished game, or None when there is none (or it expired)."""
    raise NotImplementedError
