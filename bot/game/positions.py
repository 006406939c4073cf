"""/posizione's answer: a position's ids (GNU Backgammon's for classic, ours for long),
for the game in progress or for the end of a finished game named by its number."""

from __future__ import annotations

from typing import Any

from bot.texts import messages as T
from engine import GameRecord, GameState, long_position_id, match_id_for, position_id_for


def position_text(s: GameState) -> str:
    """The ids of ``s``: Position ID and Match ID (classic), Tavola's own id (long)."""
    if s.rules.gnubg_ids:
        return T.position_classic(position_id_for(s), match_id_for(s))
    return T.position_long(long_position_id(s.checkers[s.turn.other], s.checkers[s.turn]))


def final_position_text(record_doc: dict[str, Any]) -> str:
    """The ids of a kept game's last position. The record is replayed through the rules
    (tens of milliseconds): it runs in a worker process (also inline in tests)."""
    return position_text(GameRecord.from_doc(record_doc).final_state())
