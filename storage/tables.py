"""The tables of a room: which tables of a chat (or of a forum topic) are in use, who sits
at which, and which table a game id belongs to.

A room (a group, a forum topic) may host several games at once, one per table; a person sits
at one table per room. The room's own key is its first table, further tables are places of
their own keyed in :func:`storage.keys.table_place`'s range, in the room's hash slot. Three
hashes of the room index them (see :class:`storage.keys.Keys`): ``seats`` (user -> table),
``tables`` (table -> who sits there, its game, when it was claimed) and ``table-games``
(game id -> table, kept as long as finished games are).

A table is claimed for its players before its game is created, and is in use while that
game is stored: a match that ends (its game archived) or expires frees its table and its
seats without any further write. Readers drop what they find freed this way, so the index
never keeps anyone seated at a table whose game is gone. A claim whose game never came (the
worker stopped in between) is freed after ``CLAIM_SECONDS``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from storage.connect import Client
from storage.keys import Keys
from storage.repository import _translating_redis_errors

#: How long a table claimed for a game that is not stored yet stays claimed.
CLAIM_SECONDS = 60.0

SEATED = 0  # a player already sits at another table of the room
TAKEN = -1  # the table is in use

# Is the entry ``raw`` of the table whose game key is ``game_key`` still in use?
_LIVE = """
local function live(raw, game_key, now)
  local ok, entry = pcall(cjson.decode, raw)
  if not ok or type(entry) ~= 'table' then return false end
  if entry['g'] ~= nil then
    return tonumber(redis.call('HGET', game_key, 'id')) == tonumber(entry['g'])
  end
  return (tonumber(entry['t']) or 0) > now
end
"""

# KEYS: seats, tables, the table's game
# ARGV: table key, now ms, claim window ms, entry JSON, ttl ms, user ids...
# Reply: {1} claimed; {-1} the table is in use; {0, user, table} a user sits elsewhere.
CLAIM_TABLE = (
    _LIVE
    + """
local now = tonumber(ARGV[2])
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  if live(old, KEYS[3], now - tonumber(ARGV[3])) then return {-1} end
elseif redis.call('EXISTS', KEYS[3]) == 1 then
  return {-1}  -- a game stored before the room kept an index
end
for i = 6, #ARGV do
  local seat = redis.call('HGET', KEYS[1], ARGV[i])
  if seat and seat ~= ARGV[1] then return {0, ARGV[i], seat} end
end
if old then  -- a freed table: its old players are seated no more
  local ok, entry = pcall(cjson.decode, old)
  if ok and type(entry) == 'table' and type(entry['p']) == 'table' then
    for _, user in ipairs(entry['p']) do
      if redis.call('HGET', KEYS[1], tostring(user)) == ARGV[1] then
        redis.call('HDEL', KEYS[1], tostring(user))
      end
    end
  end
end
for i = 6, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], ARGV[1]) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])  -- a room nobody plays in any more is forgotten
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {1}
"""
)

# KEYS: tables, table-games, last-tables
# ARGV: table key, game id, ttl ms, the entry with its game (JSON), user ids...
# The claimed table now holds the game: its entry says so, the game finds its table, and
# its players find it as the table where they last sat.
NOTE_GAME = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
for i = 5, #ARGV do redis.call('HSET', KEYS[3], ARGV[i], ARGV[1]) end
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1
"""

# KEYS: seats, tables, the table's game
# ARGV: table key, now ms, claim window ms, user ids...
# Free the table and its players' seats unless it is in use (a claim that failed, or an
# entry found freed by its game's end).
FREE_TABLE = (
    _LIVE
    + """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if raw and live(raw, KEYS[3], tonumber(ARGV[2]) - tonumber(ARGV[3])) then return 0 end
if raw then redis.call('HDEL', KEYS[2], ARGV[1]) end
for i = 4, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return 1
"""
)


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table in use: its key, its players (user ids) and its game (None: being set)."""

    key: int
    players: tuple[int, ...]
    game_id: int | None


@dataclass(frozen=True, slots=True)
class Seated:
    """A claim refused: ``user_id`` already sits at the table ``table`` of the room."""

    user_id: int
    table: int


def _json(doc: object) -> str:
    return json.dumps(doc, separators=(",", ":"))


class TableIndex:
    """The index of a room's tables (see the module): every call is one or a few
    single-slot commands or scripts on the room's keys."""

    def __init__(
        self,
        client: Client,
        keys: Keys,
        *,
        games_ttl: float,
        clock: Callable[[], float] = time.time,
        call_timeout: float | None = None,
    ) -> None:
        self.client = client
        self.call_timeout = call_timeout  # read by the error translation, as the repository's
        self.keys = keys
        self.games_ttl = games_ttl
        self._clock = clock
        self._claim = client.register_script(CLAIM_TABLE)
        self._note = client.register_script(NOTE_GAME)
        self._free = client.register_script(FREE_TABLE)

    def _now_ms(self) -> int:
        return round(self._clock() * 1000)

    @_translating_redis_errors
    async def claim(self, room: int, table: int, players: Sequence[int]) -> Seated | bool:
        """Claim ``table`` of ``room`` for ``players``: True when claimed, False when the
        table is in use, a :class:`Seated` when a player sits at another table."""
        await self._tidy_seats(room, players)
        entry = _json({"p": list(players), "t": self._now_ms()})
        reply = await self._claim(
            keys=[self.keys.seats(room), self.keys.tables(room), self.keys.game(table)],
            args=[
                table,
                self._now_ms(),
                round(CLAIM_SECONDS * 1000),
                entry,
                round(self.games_ttl * 1000),
                *players,
            ],
        )
        status = int(reply[0])
        if status == SEATED:
            return Seated(int(reply[1]), int(reply[2]))
        return status == 1

    @_translating_redis_errors
    async def note_game(self, room: int, table: int, game_id: int, players: Sequence[int]) -> bool:
        """The ``table`` claimed for ``players`` holds the game ``game_id`` now."""
        keys = [
            self.keys.tables(room),
            self.keys.table_games(room),
            self.keys.last_tables(room),
        ]
        entry = {"p": list(players), "t": self._now_ms(), "g": game_id}
        args: list[str | int] = [
            table,
            game_id,
            round(self.games_ttl * 1000),
            _json(entry),
            *players,
        ]
        return bool(await self._note(keys=keys, args=args))

    @_translating_redis_errors
    async def free(
        self, room: int, table: int, players: Sequence[int], *, claim: bool = True
    ) -> bool:
        """Free ``table`` unless its game is stored; a claim still waiting for its game
        stays too, unless ``claim`` is False (the claimer's game could not start)."""
        keys = [self.keys.seats(room), self.keys.tables(room), self.keys.game(table)]
        window = round(CLAIM_SECONDS * 1000) if claim else 0
        args = [table, self._now_ms(), window, *players]
        return bool(await self._free(keys=keys, args=args))

    @_translating_redis_errors
    async def seat_of(self, room: int, user_id: int) -> int | None:
        """The table of ``room`` at which ``user_id`` sits, or None."""
        raw = await self.client.hget(self.keys.seats(room), str(user_id))
        if raw is None:
            return None
        table = int(raw)
        entry = await self._entry(room, table)
        if entry is not None and user_id in entry.players:
            return table
        await self.free(room, table, [user_id])
        return None

    @_translating_redis_errors
    async def in_use(self, room: int) -> list[TableEntry]:
        """The tables of ``room`` in use, in the order they were claimed."""
        raw = await self.client.hgetall(self.keys.tables(room))
        found: list[tuple[int, TableEntry]] = []
        for field, value in raw.items():
            table = int(field)
            entry = await self._live(room, table, value)
            if entry is None:
                continue
            found.append(entry)
        return [entry for _, entry in sorted(found, key=lambda pair: pair[0])]

    @_translating_redis_errors
    async def table_of_game(self, room: int, game_id: int) -> int | None:
        """The table of ``room`` that holds (or held) the game ``game_id`` (None: a game
        older than the index, or none of the room's)."""
        raw = await self.client.hget(self.keys.table_games(room), str(game_id))
        return None if raw is None else int(raw)

    @_translating_redis_errors
    async def last_of(self, room: int, user_id: int) -> int | None:
        """The table of ``room`` where ``user_id`` last sat (None: none kept)."""
        raw = await self.client.hget(self.keys.last_tables(room), str(user_id))
        return None if raw is None else int(raw)

    async def _tidy_seats(self, room: int, players: Sequence[int]) -> None:
        """Drop the seats of ``players`` at tables no longer in use."""
        for user_id in players:
            await self.seat_of(room, user_id)

    async def _entry(self, room: int, table: int) -> TableEntry | None:
        raw = await self.client.hget(self.keys.tables(room), str(table))
        if raw is None:
            return None
        live = await self._live(room, table, raw)
        return None if live is None else live[1]

    async def _live(self, room: int, table: int, raw: bytes | str) -> tuple[int, TableEntry] | None:
        """The entry and its claim time when the table is in use; a freed one is dropped."""
        try:
            doc = json.loads(raw)
            players = tuple(int(user) for user in doc["p"])
            claimed = int(doc["t"])
            game_id = None if doc.get("g") is None else int(doc["g"])
        except (KeyError, TypeError, ValueError):
            players, claimed, game_id = (), 0, None
        if game_id is not None:
            current = await self.client.hget(self.keys.game(table), "id")
            in_use = current is not None and int(current) == game_id
        else:
            in_use = claimed > self._now_ms() - CLAIM_SECONDS * 1000
        if not in_use:
            await self.free(room, table, players)
            return None
        return claimed, TableEntry(table, players, game_id)
