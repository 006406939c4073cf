"""The chat's last finished game as the analysis needs it: its record and its table.

Every finished game's record is archived (``GameRepository.archive_record``, a document
``{"rec": record, "pl": players, ...}``) for ``TAVOLA_RECORD_DAYS``; the newest is the
game to analyse. Its table (the names, and whether the players chose the analysis for the
group) is the chat's current match when that is the same match, else the archived one.
A game finished before records were archived is still found through its table's own
record (a table keeps the record of its last game).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.game.table import Player, Table
from bot.services import Services
from engine import GameRecord, GameState, InvalidInputError
from storage import ArchivedRecord, CorruptGameError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LastGame:
    """A finished game: the table it was played at (players, options), its first state
    (variant, game number, cube settings), and its record's document."""

    table: Table
    state: GameState
    record_doc: dict[str, Any]


async def last_game(svc: Services, chat_id: int) -> LastGame | None:
    """The chat's last finished game, or None when there is none (or it expired)."""
    try:
        archived = await svc.repo.last_records(chat_id, limit=1)
        current = await _current(svc, chat_id)
        if archived:
            return await _from_archive(svc, chat_id, archived[0], current)
        table = current[1] if current is not None else await _last_match(svc, chat_id)
    except (CorruptGameError, InvalidInputError):
        log.warning("chat %s: no readable record of its last game", chat_id, exc_info=True)
        return None
    record = None if table is None else table.record
    if table is None or record is None or not record.finished:
        return None
    return LastGame(table, record.initial_state(), record.to_doc())


async def _current(svc: Services, chat_id: int) -> tuple[int, Table] | None:
    """The chat's match in progress (its game id and table), if any."""
    stored = await svc.repo.load_game(chat_id)
    return None if stored is None else (stored.game_id, Table.from_doc(stored.doc))


async def _last_match(svc: Services, chat_id: int) -> Table | None:
    """The table of the chat's last finished match, while it is kept."""
    for game_id in await svc.repo.finished_game_ids(chat_id, limit=1):
        finished = await svc.repo.load_finished_game(chat_id, game_id)
        if finished is not None:
            return Table.from_doc(finished.doc)
    return None


async def _from_archive(
    svc: Services, chat_id: int, archived: ArchivedRecord, current: tuple[int, Table] | None
) -> LastGame | None:
    doc = archived.doc
    record = GameRecord.from_doc(doc.get("rec"))
    if current is not None and current[0] == archived.game_id:
        table: Table | None = current[1]
    else:
        finished = await svc.repo.load_finished_game(chat_id, archived.game_id)
        table = None if finished is None else Table.from_doc(finished.doc)
    if table is None:  # the match has expired before its record: the names are kept
        _, players = kept_record(doc)
        table = Table(record.initial_state(), players)
    return LastGame(table, record.initial_state(), doc["rec"])


def kept_record(doc: dict[str, Any]) -> tuple[GameRecord, tuple[Player, Player]]:
    """A kept record's document (``pipeline.record_document``): the record and players."""
    record = GameRecord.from_doc(doc.get("rec"))
    try:
        (id0, name0), (id1, name1) = doc["pl"]
        players = (Player(int(id0), str(name0)), Player(int(id1), str(name1)))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"malformed players: {exc}") from None
    return record, players
