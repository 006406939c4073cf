"""The chat's finished games: the one place that finds them, for the analysis, the replay,
the match file and the dice check alike.

Every finished game is kept twice: storage archives its record (``GameRepository.
archive_record``, the document ``pipeline.record_document`` writes: ``{"rec": record, "pl":
players, "dp": dice proof}``) for ``TAVOLA_RECORD_DAYS``, and the match's table keeps the
record of its last game. The rules, the same for every caller:

- the match asked for, else the match of the newest archived record, else the chat's match
  in progress, else its last finished match (a game whose record could not be archived is
  still found through its table);
- its games are its archived records, plus the table's own record when that game is over
  and was not archived, in game order; an unreadable record is skipped (and logged);
- its table (names, options such as the shared analysis) is the chat's match in progress
  when that is the same match, else the finished match kept by storage, else one rebuilt
  from the names kept with the last record.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot import pipeline
from bot.game.dice import DiceProof
from bot.game.table import Player, Table
from bot.services import Services
from engine import EngineError, GameRecord, GameState, InvalidInputError
from storage import CorruptGameError

log = logging.getLogger(__name__)

#: How many of a chat's latest records are looked through (a match's games, and more).
MAX_RECORDS = 64


@dataclass(frozen=True, slots=True)
class KeptGame:
    """One finished game as it is kept: its record, who played it, its dice proof (None
    for dice that were not seeded, as in tests)."""

    record: GameRecord
    players: tuple[Player, Player]
    proof: DiceProof | None

    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """The finished games of one match (or single game), in order, and its table."""

    game_id: int
    table: Table
    games: tuple[KeptGame, ...]  # never empty

    @property
    def last(self) -> KeptGame:
        return self.games[-1]

    @property
    def players(self) -> tuple[Player, Player]:
        return self.last.players

    @property
    def names(self) -> tuple[str, str]:
        return self.last.names

    @property
    def records(self) -> tuple[GameRecord, ...]:
        return tuple(game.record for game in self.games)

    @property
    def bottom_player(self) -> int | None:
        """Who sits at the bottom of the pictures: the person against the computer (as on
        the live board), else nobody in particular (White)."""
        return 0 if self.players[1].is_computer else None


@dataclass(frozen=True)
class LastGame:
    """The last finished game as the analysis needs it: the table it was played at
    (players, options), its first state (variant, game number, cube settings), and its
    record's document."""

    table: Table
    state: GameState
    record_doc: dict[str, Any]
    key: int = 0  # the place whose game it is (a chat, a forum topic, an inline message)
    game_id: int = 0  # the match it belongs to


def kept_game(doc: dict[str, Any]) -> KeptGame:
    """A kept record's document (``pipeline.record_document``) read back; raises an
    ``EngineError`` when it cannot be read."""
    record = GameRecord.from_doc(doc.get("rec"))
    try:
        (id0, name0), (id1, name1) = doc["pl"]
        players = (Player(int(id0), str(name0)), Player(int(id1), str(name1)))
        proof = None if doc.get("dp") is None else DiceProof.from_doc(doc["dp"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidInputError(f"malformed kept record: {exc}") from None
    return KeptGame(record, players, proof)


async def finished_match(
    svc: Services, chat_id: int, game_id: int | None = None
) -> FinishedMatch | None:
    """The finished games of the chat's match ``game_id`` (None: the chat's last match with
    a finished game, see the module doc), or None when there is none (or it expired)."""
    kept: dict[int, dict[int, KeptGame]] = {}
    newest: int | None = None
    for row in await svc.repo.last_records(chat_id, MAX_RECORDS):
        try:
            kept.setdefault(row.game_id, {})[row.game_number] = kept_game(row.doc)
        except EngineError as exc:
            log.warning("record %s:%s of chat %s: %s", row.game_id, row.game_number, chat_id, exc)
            continue
        newest = row.game_id if newest is None else newest
    chosen = game_id if game_id is not None else newest
    found = await _match_table(svc, chat_id, chosen)
    if found is not None:
        chosen, table = found
        own = _own_game(table)
        if own is not None:
            kept.setdefault(chosen, {}).setdefault(own.record.game_number, own)
    else:
        table = None
    games = kept.get(chosen) if chosen is not None else None
    if chosen is None or not games:
        return None
    ordered = tuple(games[n] for n in sorted(games))
    if table is None:  # the match has expired before its records: the names are kept
        table = Table(ordered[0].record.initial_state(), ordered[-1].players)
    return FinishedMatch(chosen, table, ordered)


async def last_game(svc: Services, chat_id: int) -> LastGame | None:
    """The chat's last finished game, or None when there is none (or it expired)."""
    try:
        match = await finished_match(svc, chat_id)
    except (CorruptGameError, InvalidInputError):
        log.warning("chat %s: no readable record of its last game", chat_id, exc_info=True)
        return None
    if match is None:
        return None
    record = match.last.record
    return LastGame(match.table, record.initial_state(), record.to_doc(), chat_id, match.game_id)


def _own_game(table: Table) -> KeptGame | None:
    """The table's own record, when its game is over (as it would have been archived)."""
    if table.record is None or not table.record.finished:
        return None
    return kept_game(pipeline.record_document(table))


async def _match_table(
    svc: Services, chat_id: int, game_id: int | None
) -> tuple[int, Table] | None:
    """(game id, table) of match ``game_id``: the chat's match in progress when it is that
    one, else the finished match storage keeps. With no ``game_id``: the match in progress,
    else the last finished match. None when no readable table is kept."""
    try:
        loaded = await pipeline.load(svc, chat_id)
    except CorruptGameError:
        log.warning("chat %s: its game in progress is unreadable", chat_id)
        loaded = None
    if loaded is not None and game_id in (None, loaded.stored.game_id):
        return loaded.stored.game_id, loaded.table
    if game_id is None:
        ids = await svc.repo.finished_game_ids(chat_id, limit=1)
        if not ids:
            return None
        game_id = ids[0]
    finished = await svc.repo.load_finished_game(chat_id, game_id)
    if finished is None:
        return None
    try:
        return game_id, Table.from_doc(finished.doc)
    except EngineError:
        log.warning("finished game %s of chat %s is unreadable", game_id, chat_id)
        return None
