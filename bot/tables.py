"""Several tables in one room: which table a person, a command or a button means.

A group, or a topic of a forum group, is a room where any two members may play while
others play: each game sits at a table of its own (``places.Place.table``; the room's own
key is its first table), with its own stored game, timers and painter queue, while the
room's challenges, budget, leaderboard and settings stay the room's. A person sits at one
table per room (``storage.tables``): a command about "the game" means the caller's table,
a button the table of the game it was drawn for. Private chats and inline messages hold one
table each, the place itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapters.places import Place
from bot.game.table import Table
from bot.services import Services
from bot.texts.tables import TableLine
from engine import EngineError
from storage import CorruptGameError, PressReads
from storage.tables import Seated

#: How many tables one room may hold at once (the room's own and the further ones).
MOST_TABLES = 24


class SeatTakenError(Exception):
    """A player of a game about to start already sits at another table of the room."""

    def __init__(self, user_id: int, table: Place) -> None:
        super().__init__(f"user {user_id} already sits at table {table.key}")
        self.user_id = user_id
        self.table = table


class RoomFullError(Exception):
    """Every table of the room is in use."""


def hosts_tables(place: Place) -> bool:
    """Is ``place`` a room of several tables (a group or one of its topics)?"""
    return not place.is_inline and place.chat_id < 0


def at(room: Place, key: int) -> Place:
    """The table ``key`` of ``room`` (a group or a topic, never a further table) as a place."""
    if key == room.key:
        return room
    return Place(key, thread_id=room.thread_id, topic_chat_id=room.chat_id, room=room.key)


async def _table_at(svc: Services, key: int) -> Table | None:
    """The table stored under ``key`` (None: none, or unreadable)."""
    try:
        stored = await svc.repo.load_game(key)
    except CorruptGameError:
        return None
    if stored is None:
        return None
    try:
        return Table.from_doc(stored.doc)
    except EngineError:
        return None


async def seat(svc: Services, room: Place, user_id: int) -> Place | None:
    """The table of ``room`` at which ``user_id`` plays, or None.

    A game stored before its room kept an index of tables is found at the room's own key."""
    if not hosts_tables(room):
        return None
    key = await svc.repo.tables.seat_of(room.key, user_id)
    if key is not None:
        return at(room, key)
    table = await _table_at(svc, room.key)
    if table is not None and table.index_of(user_id) is not None:
        return room
    return None


async def for_user(svc: Services, room: Place, user_id: int) -> Place:
    """The place a command of ``user_id`` in ``room`` is about: their table, else the room."""
    return await seat(svc, room, user_id) or room


async def for_history(svc: Services, room: Place, user_id: int) -> Place:
    """The table whose games a history command of ``user_id`` is about (a replay, the move
    list, the analysis, the dice check): where they play, else where they last played."""
    found = await seat(svc, room, user_id)
    if found is not None or not hosts_tables(room):
        return found or room
    key = await svc.repo.tables.last_of(room.key, user_id)
    return room if key is None else at(room, key)


async def all_places(svc: Services, rooms: list[Place]) -> list[Place]:
    """The ``rooms`` and their further tables in use: what concerns a whole chat."""
    found = list(rooms)
    for room in rooms:
        for entry in await svc.repo.tables.in_use(room.key):
            if entry.key != room.key:
                found.append(at(room, entry.key))
    return found


async def for_game(svc: Services, room: Place, game_id: int) -> Place:
    """The table of ``room`` whose board a button of game ``game_id`` was on."""
    if not hosts_tables(room):
        return room
    key = await svc.repo.tables.table_of_game(room.key, game_id)
    return room if key is None else at(room, key)


async def for_press(
    svc: Services, room: Place, game_id: int, user_id: int
) -> tuple[Place, PressReads]:
    """:func:`for_game`, with the press's other reads in the same round trip: the game at
    the room's own table (where a room's game usually sits) and the presser's settings."""
    reads = await svc.repo.read_for_press(
        room.key, user_id, room=room.key if hosts_tables(room) else None, game_id=game_id
    )
    return (room if reads.table is None else at(room, reads.table)), reads


async def sit(svc: Services, room: Place, table: Table) -> Place:
    """Claim a free table of ``room`` for the people of ``table``: the first table not in
    use. SeatTakenError: one of them plays at another table; RoomFullError: no table free."""
    await seated(svc, room, table)  # also finds a player of a game older than the index
    people = [p.user_id for p in table.players if not p.is_computer]
    used = {entry.key for entry in await svc.repo.tables.in_use(room.key)}
    for number in range(MOST_TABLES):
        place = Place.table(room, number)
        if place.key in used:
            continue  # in use: no claim to try (a race lost below tries the next one)
        claimed = await svc.repo.tables.claim(room.key, place.key, people)
        if isinstance(claimed, Seated):
            raise SeatTakenError(claimed.user_id, at(room, claimed.table))
        if claimed:
            return place
    raise RoomFullError(room.key)


async def seated(svc: Services, room: Place, table: Table) -> Place | None:
    """Start nothing if a person of ``table`` already plays in ``room``: raise
    SeatTakenError for the first one found; None when all are free."""
    if not hosts_tables(room):
        return None
    for player in table.players:
        if player.is_computer:
            continue
        found = await seat(svc, room, player.user_id)
        if found is not None:
            raise SeatTakenError(player.user_id, found)
    return None


@dataclass(frozen=True, slots=True)
class InPlay:
    """A table of a room in use, as a list of tables shows it."""

    place: Place
    table: Table


async def in_play(svc: Services, room: Place) -> list[InPlay]:
    """The tables of ``room`` with a game on, the room's own first."""
    if not hosts_tables(room):
        return []
    keys = [entry.key for entry in await svc.repo.tables.in_use(room.key)]
    if room.key not in keys:
        keys.insert(0, room.key)  # a game stored before the index, or none
    found: list[InPlay] = []
    for key in keys:
        table = await _table_at(svc, key)
        if table is not None:
            found.append(InPlay(at(room, key), table))
    return found


def line(table: Table) -> TableLine:
    """A table in play as a list of tables shows it."""
    s = table.state
    first, second = table.players
    return TableLine(first.name, second.name, s.variant, s.config.length, (s.score[0], s.score[1]))


async def lines(svc: Services, room: Place) -> list[TableLine]:
    """The tables of ``room`` in play, as lines of a list."""
    return [line(found.table) for found in await in_play(svc, room)]


async def opponent_of(svc: Services, place: Place, user_id: int) -> str | None:
    """The name of whom ``user_id`` plays at the table ``place`` (None: unknown)."""
    table = await _table_at(svc, place.key)
    if table is None:
        return None
    index = table.index_of(user_id)
    if index is None:
        return None
    return table.players[1 - index].name
