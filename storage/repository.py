"""The asyncio repository over redis-py: games, challenges, deadlines, names, stats, ratings.

Optimistic concurrency: a loaded game carries its version; ``save_game`` and ``finish_game``
write only if the stored version is still that one, and bump it, in one Lua script. A caller
whose update was built on an old version gets :class:`VersionConflictError` and reloads, so a
click is never applied twice and no concurrent update is lost, whichever process serves it.

Per move the bot does one read (``load_game``: HMGET) and one conditional write
(``save_game``: EVALSHA), i.e. two round trips.

Outages: the client retries a command on a fresh connection (see
:func:`storage.connect.make_client`), and every public method gives up after ``call_timeout``
seconds at most, raising :class:`StorageUnavailableError`; the next call after the server is
back works with the same client.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ParamSpec, TypeVar, overload

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from storage import scripts
from storage.connect import Client
from storage.errors import (
    ChallengeGoneError,
    CorruptGameError,
    GameAlreadyActiveError,
    GameNotFoundError,
    NewerGameError,
    StorageError,
    StorageUnavailableError,
    VersionConflictError,
)
from storage.handled import HandledUpdates
from storage.keys import LAYOUT_VERSION, TIMER_SHARDS, Keys, shard_of
from storage.models import (
    DAY,
    VARIANTS,
    ArchivedRecord,
    Challenge,
    Deadline,
    FinishedGame,
    FinishOutcome,
    GameResult,
    LeaderboardEntry,
    Migration,
    PlayerStats,
    PressReads,
    RatingChange,
    StorageConfig,
    StoredGame,
    Timer,
    VariantStats,
)
from storage.names import shorten_name
from storage.rating import rating_change
from storage.schema import (
    Document,
    NewerSchemaError,
    SchemaError,
    SchemaRegistry,
    encode_document,
    parse_document,
)

P = ParamSpec("P")
R = TypeVar("R")

CALL_TIMEOUT_SECONDS = 5.0
_INDEX_MIN_TTL = 86_400.0
#: How long a group's topics are remembered after the last game started in one of them.
TOPIC_MEMORY_SECONDS = 90 * 86_400.0
_STAT_FIELDS = (
    "games",
    "wins",
    "losses",
    "draws",
    "points",
    "points_against",
    "matches",
    "match_wins",
    "match_losses",
    "match_draws",
    "experience",
    "money_games",
    "money_points",
    "money_points_against",
)
_STORED_FIELD = {"experience": "exp"}
DEADLINE = "deadline"  # the kinds of timers (see claim_due_timers)
REMINDER = "reminder"
#: How long the statistics of a finished game wait for the worker that finished it before
#: any worker counts them (see count_leftovers).
COUNT_TAKEOVER_SECONDS = 30.0
#: How long a player remembers the results counted (a repeated count is ignored meanwhile).
COUNTED_MEMORY_SECONDS = 30 * 86_400.0


def _translating_redis_errors(
    method: Callable[P, Awaitable[R]],
) -> Callable[P, Awaitable[R]]:
    """Turn redis-py errors into storage errors, so the bot catches one family.

    A lost connection becomes :class:`StorageUnavailableError`; any other server error (out of
    memory, a foreign value under one of our keys) a plain :class:`StorageError`. The call is
    cut off after the repository's ``call_timeout``: the client's retries (one read timeout
    each against a hung server) would otherwise keep a handler waiting far longer than a
    player does, and an update that waits holds up its chat.
    """

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        limit: float | None = getattr(args[0], "call_timeout", None)
        deadline = asyncio.timeout(limit)
        try:
            async with deadline:
                return await method(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as exc:
            _tell(args[0], exc)
            raise StorageUnavailableError(f"Redis connection lost: {exc}") from exc
        except RedisError as exc:
            _tell(args[0], exc)
            raise StorageError(f"Redis error in {method.__name__}: {exc}") from exc
        except TimeoutError as exc:
            if not deadline.expired():
                raise
            _tell(args[0], exc)
            raise StorageUnavailableError(f"Redis did not answer within {limit:g} s") from None

    return wrapper


def _tell(repo: object, exc: BaseException) -> None:
    """Tell the repository's ``on_error`` listener (the bot counts the errors), if any."""
    listener = getattr(repo, "on_error", None)
    if listener is not None:
        listener(exc)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


@overload
def _text(value: bytes | str) -> str: ...
@overload
def _text(value: bytes | str | None) -> str | None: ...
def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value


def _present(value: bytes | str | None) -> bytes | str:
    """A field the record must have; TypeError (a malformed record) when it is missing."""
    if value is None:
        raise TypeError("a required field is missing")
    return value


def _int(value: object) -> int:
    """An integer from a Redis reply (bytes, str or int); TypeError for anything else."""
    if isinstance(value, int | str | bytes | bytearray):
        return int(value)
    raise TypeError(f"expected an integer, got {type(value).__name__}")


def _float(value: object) -> float:
    """A number from a Redis reply (a score: float, bytes or str); TypeError otherwise."""
    if isinstance(value, float | int | str | bytes | bytearray):
        return float(value)
    raise TypeError(f"expected a number, got {type(value).__name__}")


def _scored(rows: object) -> list[tuple[int, float]]:
    """``(member, score)`` pairs of a ``withscores=True`` reply, members as integers."""
    if not isinstance(rows, list | tuple):
        raise TypeError(f"expected a list of (member, score), got {type(rows).__name__}")
    return [(_int(member), _float(score)) for member, score in rows]


def _scored_text(rows: object) -> list[tuple[str, float]]:
    """``(member, score)`` pairs of a ``withscores=True`` reply, members as text."""
    if not isinstance(rows, list | tuple):
        raise TypeError(f"expected a list of (member, score), got {type(rows).__name__}")
    return [
        (_text(bytes(member) if isinstance(member, bytearray) else member), _float(score))
        for member, score in rows
    ]


class GameRepository:
    """All the bot's persistent state, over one ``redis.asyncio.Redis`` client.

    The client should return bytes (``decode_responses=False``, as :func:`storage.open_redis`
    creates it): the repository decodes values itself so that a corrupted value is reported for
    its chat instead of failing inside the client.
    """

    def __init__(
        self,
        client: Client,
        schema: SchemaRegistry,
        config: StorageConfig | None = None,
        *,
        clock: Callable[[], float] = time.time,
        call_timeout: float | None = CALL_TIMEOUT_SECONDS,
    ) -> None:
        """``call_timeout``: seconds after which a public method gives up with
        :class:`StorageUnavailableError` (None: wait as long as the client's retries take)."""
        if call_timeout is not None and call_timeout <= 0:
            raise ValueError("call_timeout must be positive")
        self.client = client
        #: Called with each Redis error before it is raised as a storage error (metrics).
        self.on_error: Callable[[BaseException], None] | None = None
        self.schema = schema
        self.config = config or StorageConfig()
        self.call_timeout = call_timeout
        self.keys = Keys(self.config.prefix)
        self._handled = HandledUpdates(self.config.prefix)
        self._clock = clock
        self._create = client.register_script(scripts.CREATE_GAME)
        self._save = client.register_script(scripts.SAVE_GAME)
        self._finish = client.register_script(scripts.FINISH_GAME)
        self._discard = client.register_script(scripts.DISCARD_GAME)
        self._set_msg = client.register_script(scripts.SET_BOARD_MESSAGE)
        self._mark_shown = client.register_script(scripts.MARK_SHOWN)
        self._claim_timers = client.register_script(scripts.CLAIM_TIMERS)
        self._complete_timer = client.register_script(scripts.COMPLETE_TIMER)
        self._count = client.register_script(scripts.COUNT_RESULT)
        self._claim_counts = client.register_script(scripts.CLAIM_COUNTS)
        self._place_game = client.register_script(scripts.PLACE_GAME)
        self._close_card = client.register_script(scripts.CLOSE_INLINE_CARD)
        self._set_reminder = client.register_script(scripts.SET_REMINDER)
        from storage.tables import TableIndex  # it uses this module's error translation

        #: The tables of each room: who sits where (see storage.tables).
        self.tables = TableIndex(
            client,
            self.keys,
            games_ttl=self.config.finished_game_ttl,
            clock=clock,
            call_timeout=call_timeout,
        )

    # ----------------------------------------------------------------- games

    #: The fields of a game's hash a load reads, in :meth:`_stored_game`'s order.
    _GAME_FIELDS = ("v", "id", "doc", "msg", "ts", "sv")

    @_translating_redis_errors
    async def load_game(self, chat_id: int) -> StoredGame | None:
        """The chat's active game (migrated to the current schema), or None.

        Raise :class:`CorruptGameError` when the record cannot be read safely.
        """
        try:
            raw = await self.client.hmget(self.keys.game(chat_id), self._GAME_FIELDS)
        except ResponseError as exc:  # WRONGTYPE: something else sits under the game's key
            raise CorruptGameError(chat_id, f"unexpected record ({exc})") from None
        return self._stored_game(chat_id, raw)

    @_translating_redis_errors
    async def read_for_press(
        self, place: int, user_id: int, *, room: int | None = None, game_id: int = 0
    ) -> PressReads:
        """The reads of a button press in one round trip (a pipeline, one per node of a
        cluster): the game at ``place``, ``user_id``'s settings and, with ``room``, the
        table of ``room`` that holds game ``game_id`` (:meth:`TableIndex.table_of_game`).

        A press on a room's first table, the common case, then needs nothing more; on a
        further table the caller loads that table's game. Raise :class:`CorruptGameError`
        as :meth:`load_game` does for an unreadable game at ``place``, but from
        :meth:`PressReads.stored` only (the caller may not need that game).
        """
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.hmget(self.keys.game(place), self._GAME_FIELDS)
            pipe.hgetall(self.keys.preferences(user_id))
            if room is not None:
                pipe.hget(self.keys.table_games(room), str(game_id))
            replies = await pipe.execute(raise_on_error=False)
        for reply in replies[1:]:
            if isinstance(reply, Exception):
                raise reply
        raw, preferences = replies[0], replies[1]
        table = replies[2] if room is not None else None
        game: StoredGame | None = None
        error: Exception | None = None
        if isinstance(raw, ResponseError):  # WRONGTYPE: something else under the game's key
            error = CorruptGameError(place, f"unexpected record ({raw})")
        elif isinstance(raw, Exception):
            raise raw
        else:
            try:
                game = self._stored_game(place, raw)
            except (CorruptGameError, NewerGameError) as exc:
                error = exc
        return PressReads(
            place=place,
            table=None if table is None else int(table),
            game=game,
            preferences={_text(k) or "": _text(v) or "" for k, v in preferences.items()},
            game_error=error,
        )

    def _stored_game(self, chat_id: int, raw: Sequence[Any]) -> StoredGame | None:
        """A game's hash fields (:attr:`_GAME_FIELDS`) as a stored game, or None if absent."""
        version, game_id, doc_raw, msg, ts, shown = raw
        if version is None and game_id is None and doc_raw is None:
            return None
        try:
            return StoredGame(
                chat_id=chat_id,
                game_id=_int(game_id),
                version=_int(version),
                doc=self.schema.load(_present(doc_raw)),
                board_message_id=int(msg) if msg is not None else None,
                updated_at=int(ts) / 1000 if ts is not None else 0.0,
                shown_version=int(shown) if shown is not None else None,
            )
        except NewerSchemaError as exc:
            raise NewerGameError(chat_id, str(exc)) from None
        except SchemaError as exc:
            raise CorruptGameError(chat_id, str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise CorruptGameError(chat_id, f"malformed record ({exc})") from None

    @_translating_redis_errors
    async def create_game(
        self,
        chat_id: int,
        doc: Document,
        *,
        deadline_at: float | None = None,
        challenge_id: int | None = None,
        challenge_room: int | None = None,
    ) -> StoredGame:
        """Start the chat's game at version 1 and return it with its new game id.

        With ``challenge_id`` the challenge is consumed in the same atomic step, so of two
        players accepting it at once exactly one starts the game (the other gets
        :class:`ChallengeGoneError`); it is a challenge of ``challenge_room`` when the game
        starts at a further table of that room (same slot: see storage.keys). Raise
        :class:`GameAlreadyActiveError` when the chat already plays.
        """
        room = chat_id if challenge_room is None else challenge_room
        self.schema.check_storable(doc)
        game_id = int(await self.client.incr(self.keys.game_seq()))
        now_ms = _ms(self._clock())
        keys = [
            self.keys.game(chat_id),
            self.keys.deadlines(chat_id),
            self.keys.challenge(room, challenge_id or 0),
            self.keys.challenges(room),
        ]
        args: list[str | int] = [
            encode_document(doc),
            _ms(self.config.idle_game_ttl),
            now_ms,
            chat_id,
            "set" if deadline_at is not None else "clear",
            _ms(deadline_at) if deadline_at is not None else 0,
            "" if challenge_id is None else challenge_id,
            game_id,
        ]
        status, value = await self._create(keys=keys, args=args)
        if status == scripts.BUSY:
            raise GameAlreadyActiveError(chat_id, int(value))
        if status == scripts.CHALLENGE_GONE:
            raise ChallengeGoneError(chat_id, challenge_id or 0)
        if status == scripts.CORRUPT_GAME:
            raise CorruptGameError(chat_id, "unexpected record under the game's key")
        self._raise_for_status(chat_id, 0, int(status), int(value), keys)
        return StoredGame(chat_id, int(value), 1, doc, None, now_ms / 1000)

    @_translating_redis_errors
    async def save_game(
        self,
        game: StoredGame,
        doc: Document,
        *,
        deadline_at: float | None = None,
        clear_deadline: bool = False,
    ) -> StoredGame:
        """Replace ``game``'s document if nobody changed it since it was loaded.

        Returns the game at its new version. Raise :class:`VersionConflictError` (reload and
        decide again) or :class:`GameNotFoundError` (it expired, ended or was replaced).
        ``deadline_at`` sets the chat's turn deadline, ``clear_deadline`` removes it, in the
        same atomic step.
        """
        self.schema.check_storable(doc)
        now_ms = _ms(self._clock())
        keys = [self.keys.game(game.chat_id), self.keys.deadlines(game.chat_id)]
        args = [
            game.game_id,
            game.version,
            encode_document(doc),
            _ms(self.config.idle_game_ttl),
            now_ms,
            game.chat_id,
            *self._deadline_args(deadline_at, clear_deadline),
        ]
        status, value = await self._save(keys=keys, args=args)
        self._raise_for_status(game.chat_id, game, int(status), int(value), keys)
        # The board still shows what it showed: the caller redraws it, then calls mark_shown.
        return StoredGame(
            game.chat_id,
            game.game_id,
            int(value),
            doc,
            game.board_message_id,
            now_ms / 1000,
            game.shown_version,
        )

    @_translating_redis_errors
    async def finish_game(
        self,
        game: StoredGame,
        doc: Document,
        result: GameResult,
        *,
        deadline_at: float | None = None,
        clear_deadline: bool = False,
    ) -> FinishOutcome:
        """Store ``doc`` and record ``result`` in the statistics.

        The same version check as :meth:`save_game` applies, so a result is never recorded
        twice nor without its game state. When ``result.ends_match`` the ratings are updated,
        the game is archived for ``finished_game_ttl``, the chat's deadline is removed and the
        chat is free for a new game; otherwise the game stays active at its new version (the
        match goes on) and the deadline arguments apply as in :meth:`save_game`.

        In steps, each in one hash slot (a cluster spreads places and players over its
        nodes): the players' statistics are read and checked first (a corrupted one stops
        everything before any write); the game is saved atomically with an entry saying
        what to count, queued in its shard; then each player's statistics count it once
        (the result's token is remembered beside them), the leaderboards and names follow,
        and the entry is dropped. A worker that dies in between leaves the entry to
        :meth:`count_leftovers`: counted late, never twice, never lost.
        """
        if result.chat_id != game.chat_id or result.game_id != game.game_id:
            raise ValueError("the result belongs to another game")
        self.schema.check_storable(doc)
        now = self._clock()
        now_ms = _ms(now)
        chat_id = game.chat_id
        counting = await self._counting(game, result)
        keys = [
            self.keys.game(chat_id),
            self.keys.deadlines(chat_id),
            self.keys.finished(chat_id, game.game_id),
            self.keys.history(chat_id),
            self.keys.pending_counts(shard_of(chat_id)),
        ]
        member = json.dumps(counting, separators=(",", ":"), ensure_ascii=False)
        args = [
            game.game_id,
            game.version,
            encode_document(doc),
            _ms(self.config.idle_game_ttl),
            now_ms,
            chat_id,
            *self._deadline_args(deadline_at, clear_deadline),
            _ms(self.config.finished_game_ttl),
            json.dumps(result.to_dict(), separators=(",", ":"), ensure_ascii=False),
            "1" if result.ends_match else "0",
            _ms(now - self.config.finished_game_ttl),
            member,
            _ms(now + COUNT_TAKEOVER_SECONDS),
        ]
        reply = await self._finish(keys=keys, args=args)
        status, value = int(reply[0]), int(reply[1])
        self._raise_for_status(chat_id, game, status, value, keys)
        after = await self._apply_counting(counting)
        await self.client.zrem(keys[4], member)
        changes: tuple[RatingChange, ...] = ()
        if result.ends_match and not result.money:
            player_a, player_b = result.players
            before_a, before_b = (float(e["before"]) for e in counting["global"])
            after_a, after_b = after
            changes = (
                RatingChange(player_a, before_a, after_a),
                RatingChange(player_b, before_b, after_b),
            )
        return FinishOutcome(version=value, archived=result.ends_match, rating_changes=changes)

    async def _counting(self, game: StoredGame, result: GameResult) -> dict[str, Any]:
        """What a finished game adds to each statistics hash of its players (and their
        leaderboards and names), computed from the statistics as they are now.

        Raise :class:`StorageError` (nothing written) when one of them is unreadable."""
        group = game.chat_id if result.group_id is None else result.group_id
        player_a, player_b = result.players
        scopes: list[tuple[str, int | None]] = [("global", None)]
        if result.in_chat:
            scopes.append(("chat", group))
        read: dict[str, list[dict[str, float]]] = {}
        for name, scope in scopes:
            read[name] = [
                await self._variant_stats(self.keys.stats(p, scope), result.variant)
                for p in (player_a, player_b)
            ]
        n = result.match_length
        money = result.money  # its points are kept apart, and it is no match: no Elo
        ends = result.ends_match and not money
        outcome_a = result.outcome_of(0)
        outcome_b = {"w": "l", "l": "w", "d": "d"}[outcome_a]
        score = {"w": 1.0, "l": 0.0, "d": 0.5}
        counting: dict[str, Any] = {
            "token": f"{game.chat_id}:{game.game_id}:{game.version}",
            "variant": result.variant,
            "players": [player_a, player_b],
            "names": [shorten_name(result.names[0]), shorten_name(result.names[1])],
            "ends": ends,
            "group": group if result.in_chat else None,
        }
        for name, _ in scopes:
            a, b = read[name]
            entries = []
            for me, other, mine, theirs, outcome in (
                (a, b, result.points[0], result.points[1], outcome_a),
                (b, a, result.points[1], result.points[0], outcome_b),
            ):
                match_points = (0, 0) if money else (mine, theirs)
                money_points = (mine, theirs) if money else (0, 0)
                delta = 0.0
                if ends:
                    delta = rating_change(
                        me["rating"], other["rating"], n, score[outcome], int(me["exp"])
                    )
                one = int(result.counts_game)  # a match left between games is no game
                entries.append(
                    {
                        "before": me["rating"],
                        "rating": delta,
                        "inc": [
                            one,
                            one * int(outcome == "w"),
                            one * int(outcome == "l"),
                            one * int(outcome == "d"),
                            *match_points,
                            int(ends),
                            int(ends and outcome == "w"),
                            int(ends and outcome == "l"),
                            int(ends and outcome == "d"),
                            n if ends else 0,
                            int(money),
                            *money_points,
                        ],
                    }
                )
            counting[name] = entries
        return counting

    async def _variant_stats(self, key: str, variant: str) -> dict[str, float]:
        """A statistics hash's rating and experience in ``variant``, checked readable."""
        try:
            raw = await self.client.hgetall(key)
        except ResponseError:
            raise StorageError(f"unexpected value under {key}: nothing was written") from None
        fields = {_text(k): _text(v) for k, v in raw.items()}
        out = {"rating": self.config.start_rating, "exp": 0.0}
        for field, value in fields.items():
            if not field.startswith(f"{variant}:"):
                continue
            try:
                number = float(value)
            except ValueError:
                raise StorageError(f"unexpected value under {key}: nothing was written") from None
            name = field.partition(":")[2]
            if name in out:
                out[name] = number
        return out

    async def _apply_counting(self, counting: dict[str, Any]) -> tuple[float, float]:
        """Count a finished game in its players' statistics, leaderboards and names: each
        step in one slot and safe to repeat. Returns the players' global ratings after."""
        token = counting["token"]
        variant = counting["variant"]
        players: list[int] = counting["players"]
        now = self._clock()
        ratings: dict[str, list[float]] = {}
        scopes: list[tuple[str, int | None]] = [("global", None)]
        if counting.get("group") is not None and "chat" in counting:
            scopes.append(("chat", int(counting["group"])))
        for name, scope in scopes:
            ratings[name] = []
            for player, entry in zip(players, counting[name], strict=True):
                key = self.keys.stats(player, scope)
                reply = await self._count(
                    keys=[key, self.keys.counted(player)],
                    args=[
                        f"{token}:{name}",
                        _ms(now),
                        _ms(now - COUNTED_MEMORY_SECONDS),
                        variant,
                        repr(self.config.start_rating),
                        repr(float(entry["rating"])),
                        *entry["inc"],
                    ],
                )
                if int(reply[0]) == scripts.CORRUPT_OTHER:
                    raise StorageError(f"unexpected value under {key}: not counted yet")
                ratings[name].append(float(reply[1]))
            if counting["ends"]:
                board = self.keys.leaderboard(variant, scope)
                await self.client.zadd(
                    board, {str(p): r for p, r in zip(players, ratings[name], strict=True)}
                )
        names: list[str] = counting["names"]
        await self.client.hset(
            self.keys.names(), mapping={str(p): n for p, n in zip(players, names, strict=True)}
        )
        first, second = ratings["global"]
        return first, second

    @_translating_redis_errors
    async def count_leftovers(self, lease: float = COUNT_TAKEOVER_SECONDS) -> int:
        """Count the statistics of finished games whose worker died before counting them
        (queued in each shard by :meth:`finish_game`); returns how many were counted.

        Every worker calls this now and then: an entry is claimed for ``lease`` seconds at a
        time, and counting one twice changes nothing."""
        done = 0
        for shard in range(TIMER_SHARDS):
            key = self.keys.pending_counts(shard)
            members = await self._claim_counts(
                keys=[key], args=[_ms(self._clock()), _ms(lease), 64]
            )
            for member in members:
                try:
                    counting = json.loads(member)
                except ValueError:
                    await self.client.zrem(key, member)
                    continue
                await self._apply_counting(counting)
                await self.client.zrem(key, member)
                done += 1
        return done

    @_translating_redis_errors
    async def discard_game(self, chat_id: int, game_id: int | None = None) -> bool:
        """Drop the chat's active game without recording anything (e.g. a corrupted one).

        With ``game_id`` only that game is dropped, never a newer one. Returns whether a game
        was dropped. The chat's deadline goes with it.
        """
        keys = [self.keys.game(chat_id), self.keys.deadlines(chat_id)]
        args = ["" if game_id is None else game_id, chat_id]
        return bool(await self._discard(keys=keys, args=args))

    @_translating_redis_errors
    async def set_board_message(self, chat_id: int, game_id: int, message_id: int) -> bool:
        """Remember the message showing the board (returned by ``load_game``).

        Not a state change: no version bump. False when ``game_id`` is no longer active.
        """
        keys = [self.keys.game(chat_id)]
        return bool(await self._set_msg(keys=keys, args=[game_id, message_id]))

    @_translating_redis_errors
    async def mark_shown(
        self, chat_id: int, game_id: int, version: int, message_id: int | None = None
    ) -> bool:
        """Record that the board message now shows ``version`` of game ``game_id``.

        ``load_game`` returns it as ``shown_version``: a board whose shown version is behind
        the game's version (the bot stopped between saving and redrawing) is redrawn on the
        next press. With ``message_id`` the board message is replaced in the same atomic step
        (a board sent as a new message). Not a state change: no version bump.

        False, and nothing written, when ``game_id`` is no longer the chat's game, when
        ``version`` is older than the version already shown (a slow redraw finishing after a
        newer one) or newer than the saved game. The same version again is accepted, so a
        board re-sent as a new message can record its message id.
        """
        keys = [self.keys.game(chat_id)]
        args = [game_id, version, "" if message_id is None else message_id]
        return bool(await self._mark_shown(keys=keys, args=args))

    @_translating_redis_errors
    async def count_games(self) -> int:
        """How many games are in progress (for the operator's metrics): a SCAN of the game
        keys, cheap enough when done every few seconds, never on a player's path."""
        pattern = self.keys.game_pattern()
        return sum([1 async for _ in self.client.scan_iter(match=pattern, count=1000)])

    @_translating_redis_errors
    async def load_finished_game(self, chat_id: int, game_id: int) -> FinishedGame | None:
        """An archived game with its final result, or None once it has expired."""
        try:
            raw = await self.client.hmget(
                self.keys.finished(chat_id, game_id), ["v", "doc", "result", "fin"]
            )
        except ResponseError as exc:
            raise CorruptGameError(chat_id, f"unexpected finished record ({exc})") from None
        version, doc_raw, result_raw, fin = raw
        if doc_raw is None:
            return None
        try:
            return FinishedGame(
                chat_id=chat_id,
                game_id=game_id,
                version=_int(version),
                doc=self.schema.load(doc_raw),
                result=parse_document(_present(result_raw)),
                finished_at=_int(fin) / 1000,
            )
        except NewerSchemaError as exc:
            raise NewerGameError(chat_id, f"finished game {game_id}: {exc}") from None
        except SchemaError as exc:
            raise CorruptGameError(chat_id, f"finished game {game_id}: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise CorruptGameError(chat_id, f"finished game {game_id}: {exc}") from None

    @_translating_redis_errors
    async def finished_game_ids(self, chat_id: int, limit: int = 20) -> list[int]:
        """The chat's finished games still kept, most recent first."""
        now_ms = _ms(self._clock())
        cutoff = now_ms - _ms(self.config.finished_game_ttl)
        members = await self.client.zrevrangebyscore(
            self.keys.history(chat_id), "+inf", cutoff, start=0, num=limit
        )
        return [_int(member) for member in members]

    def _raise_for_status(
        self,
        chat_id: int,
        game: StoredGame | int,
        status: int,
        value: int,
        keys: Sequence[str],
    ) -> None:
        if status == scripts.OK:
            return
        game_id = game.game_id if isinstance(game, StoredGame) else game
        if status == scripts.CONFLICT and isinstance(game, StoredGame):
            raise VersionConflictError(chat_id, game.version, value)
        if status == scripts.GONE:
            raise GameNotFoundError(chat_id, game_id)
        if status == scripts.CORRUPT_GAME:
            raise CorruptGameError(chat_id, "malformed game record")
        if status == scripts.CORRUPT_OTHER:
            raise StorageError(f"unexpected value under {keys[value - 1]}: nothing was written")
        raise StorageError(f"unexpected script status {status}")

    @staticmethod
    def _deadline_args(deadline_at: float | None, clear_deadline: bool) -> list[str | int]:
        if deadline_at is not None and clear_deadline:
            raise ValueError("set a deadline or clear it, not both")
        if deadline_at is not None:
            return ["set", _ms(deadline_at)]
        return ["clear" if clear_deadline else "keep", 0]

    # --------------------------------------------------------------- updates

    @_translating_redis_errors
    async def claim_update(self, bot_id: int, update_id: int, ttl: float = 86400) -> bool:
        """Record that Telegram update ``update_id`` of bot ``bot_id`` is being handled.

        True only for the first claimer, whichever process or worker it is: a duplicate
        delivery (a webhook retried, polling resumed after a crash before the offset was
        confirmed, two webhook workers) gets False and does nothing, so every update acts at
        most once. The claim is one bit of a bitmap shared by consecutive ids (see
        ``storage.handled``), kept ``ttl`` seconds after the latest claim of its bitmap;
        Telegram does not redeliver an update that old. Update ids are counted per bot.
        """
        claimed, _ = await self._claim(bot_id, update_id, None, ttl)
        return claimed

    @_translating_redis_errors
    async def claim_update_from(
        self, bot_id: int, update_id: int, chat_id: int | None, ttl: float = 86400
    ) -> tuple[bool, str | None]:
        """:meth:`claim_update`, and once claimed, :meth:`mark_reachable` of ``chat_id`` (when
        given) in the same round trip: the hot path pays nothing for noticing a chat that
        comes back. Returns whether the update was claimed, and why the chat was unreachable
        (None: it was not marked, or the update was not claimed)."""
        return await self._claim(bot_id, update_id, chat_id, ttl)

    async def _claim(
        self, bot_id: int, update_id: int, chat_id: int | None, ttl: float
    ) -> tuple[bool, str | None]:
        """One round trip: the update's bit (see ``storage.handled``) and, when a chat is
        given, a look at its away marker; the marker is taken (a second round trip, rare:
        only when the chat was away) by the claimer alone."""
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        async with self.client.pipeline(transaction=False) as pipe:
            self._handled.queue_claim(pipe, bot_id, update_id, _ms(ttl))
            if chat_id is not None:
                pipe.get(self.keys.away(chat_id))
            reply = await pipe.execute()
        claimed = int(reply[0]) == 0
        if not claimed or chat_id is None or reply[2] is None:
            return claimed, None
        return True, _text(await self.client.getdel(self.keys.away(chat_id)))

    # ------------------------------------------------------------ challenges

    @_translating_redis_errors
    async def create_challenge(
        self, chat_id: int, payload: dict[str, Any], ttl: float
    ) -> Challenge:
        """A pending challenge that disappears by itself after ``ttl`` seconds."""
        challenge_id = int(await self.client.incr(self.keys.challenge_seq()))
        expires_at = self._clock() + ttl
        index = self.keys.challenges(chat_id)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(
                self.keys.challenge(chat_id, challenge_id),
                encode_document(payload),
                px=_ms(ttl),
            )
            pipe.zadd(index, {str(challenge_id): _ms(expires_at)})
            pipe.zremrangebyscore(index, "-inf", _ms(self._clock()))
            # The index outlives its longest challenge; stale ids are pruned on each write.
            pipe.pexpire(index, _ms(max(ttl, _INDEX_MIN_TTL)))
            await pipe.execute()
        return Challenge(chat_id, challenge_id, payload, expires_at)

    @_translating_redis_errors
    async def get_challenge(self, chat_id: int, challenge_id: int) -> Challenge | None:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.get(self.keys.challenge(chat_id, challenge_id))
            pipe.pttl(self.keys.challenge(chat_id, challenge_id))
            raw, ttl_ms = await pipe.execute()
        return self._challenge(chat_id, challenge_id, raw, ttl_ms)

    @_translating_redis_errors
    async def update_challenge(
        self, chat_id: int, challenge_id: int, payload: dict[str, Any], ttl: float | None = None
    ) -> Challenge | None:
        """Replace a pending challenge's payload; None when it is gone (taken or expired).

        Without ``ttl`` the challenge keeps its expiry; with it, the clock starts again
        (a card being filled in becomes a challenge that others get the full time to take).
        """
        key = self.keys.challenge(chat_id, challenge_id)
        if ttl is None:
            done = await self.client.set(key, encode_document(payload), xx=True, keepttl=True)
            return None if not done else await self.get_challenge(chat_id, challenge_id)
        expires_at = self._clock() + ttl
        done = await self.client.set(key, encode_document(payload), xx=True, px=_ms(ttl))
        if not done:
            return None
        index = self.keys.challenges(chat_id)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.zadd(index, {str(challenge_id): _ms(expires_at)})
            pipe.pexpire(index, _ms(max(ttl, _INDEX_MIN_TTL)))
            await pipe.execute()
        return Challenge(chat_id, challenge_id, payload, expires_at)

    @_translating_redis_errors
    async def take_challenge(self, chat_id: int, challenge_id: int) -> Challenge | None:
        """Remove the challenge and return it; of concurrent takers only one gets it."""
        key = self.keys.challenge(chat_id, challenge_id)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.pttl(key)
            pipe.getdel(key)
            pipe.zrem(self.keys.challenges(chat_id), str(challenge_id))
            ttl_ms, raw, _ = await pipe.execute()
        return self._challenge(chat_id, challenge_id, raw, ttl_ms)

    @_translating_redis_errors
    async def list_challenges(self, chat_id: int) -> list[Challenge]:
        """The chat's pending challenges, oldest first."""
        index = self.keys.challenges(chat_id)
        now_ms = _ms(self._clock())
        await self.client.zremrangebyscore(index, "-inf", now_ms)
        ids = [_int(m) for m in await self.client.zrangebyscore(index, now_ms, "+inf")]
        if not ids:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for challenge_id in ids:
                pipe.get(self.keys.challenge(chat_id, challenge_id))
                pipe.pttl(self.keys.challenge(chat_id, challenge_id))
            replies = await pipe.execute()
        found = []
        for i, challenge_id in enumerate(ids):
            challenge = self._challenge(chat_id, challenge_id, replies[2 * i], replies[2 * i + 1])
            if challenge is not None:
                found.append(challenge)
        return found

    def _challenge(
        self, chat_id: int, challenge_id: int, raw: bytes | None, ttl_ms: int
    ) -> Challenge | None:
        if raw is None:
            return None
        try:
            payload = parse_document(raw)
        except SchemaError as exc:
            raise StorageError(f"challenge {challenge_id} of chat {chat_id}: {exc}") from None
        expires_at = self._clock() + max(int(ttl_ms), 0) / 1000
        return Challenge(chat_id, challenge_id, payload, expires_at)

    # ------------------------------------------------------------- game records

    @_translating_redis_errors
    async def archive_record(
        self, chat_id: int, game_id: int, game_number: int, doc: Document
    ) -> None:
        """Keep a finished game's record for ``record_ttl`` (writing it again replaces it).

        Records of one chat are listed by :meth:`last_records`; expired ones leave the list
        the next time a record is kept.
        """
        now = self._clock()
        index = self.keys.records(chat_id)
        ttl = _ms(self.config.record_ttl)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(self.keys.record(chat_id, game_id, game_number), encode_document(doc), px=ttl)
            pipe.zadd(index, {f"{game_id}:{game_number}": _ms(now)})
            pipe.zremrangebyscore(index, "-inf", _ms(now - self.config.record_ttl))
            pipe.pexpire(index, ttl)
            await pipe.execute()

    @_translating_redis_errors
    async def last_records(self, chat_id: int, limit: int = 5) -> list[ArchivedRecord]:
        """The chat's most recently finished games' records still kept, newest first.

        A record that cannot be read raises :class:`CorruptGameError` for the chat."""
        cutoff = _ms(self._clock() - self.config.record_ttl)
        rows = await self.client.zrevrangebyscore(
            self.keys.records(chat_id), "+inf", cutoff, start=0, num=limit, withscores=True
        )
        found: list[tuple[int, int, float]] = []
        for row in rows:
            member, score = row[0], row[1]
            text = member.decode() if isinstance(member, bytes) else str(member)
            gid, _, number = text.partition(":")
            found.append((int(gid), int(number), _float(score)))
        if not found:
            return []
        raws = await self.client.mget([self.keys.record(chat_id, g, n) for g, n, _ in found])
        out: list[ArchivedRecord] = []
        for (game_id, game_number, score), raw in zip(found, raws, strict=True):
            if raw is None:
                continue  # expired between the two reads
            try:
                doc = parse_document(raw)
            except SchemaError as exc:
                raise CorruptGameError(chat_id, f"record {game_id}:{game_number}: {exc}") from None
            out.append(ArchivedRecord(chat_id, game_id, game_number, doc, score / 1000))
        return out

    @_translating_redis_errors
    async def pending_dice_seed(
        self, chat_id: int, fresh: str, ttl: float = 7 * DAY, card: str = ""
    ) -> str:
        """The seed of the chat's next game: the one already pending, or ``fresh`` now.

        Its commitment is shown before the game starts, so it must stay the same until a
        game takes it (:meth:`take_dice_seed`); each showing keeps it ``ttl`` seconds more.
        A ``card`` (a challenge, a set-up page) has a seed of its own beside the chat's.
        """
        key = self.keys.dice_seed(chat_id, card)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(key, fresh, nx=True, px=_ms(ttl))
            pipe.pexpire(key, _ms(ttl))
            pipe.get(key)
            _, _, raw = await pipe.execute()
        return fresh if raw is None else _text(raw)

    @_translating_redis_errors
    async def take_dice_seed(self, chat_id: int, card: str = "") -> str | None:
        """The pending seed of the chat (or of its ``card``), removed (a game starts with
        it), or None."""
        raw = await self.client.getdel(self.keys.dice_seed(chat_id, card))
        return None if raw is None else _text(raw)

    # ------------------------------------------------------------- inline challenge cards

    @_translating_redis_errors
    async def bind_inline_card(self, chat_id: int, nonce: str, ttl: float) -> bool:
        """Record that the inline message keyed ``chat_id`` carries the card ``nonce``.

        A card is bound once: the same card sent again (Telegram lets a user pick a cached
        result twice) binds nothing, so its second message is refused. False then.
        """
        if not await self.client.set(
            self.keys.inline_card_use(nonce), str(chat_id), nx=True, px=_ms(ttl)
        ):
            return False
        await self.client.set(self.keys.inline_card(chat_id), nonce, px=_ms(ttl))
        return True

    @_translating_redis_errors
    async def inline_card(self, chat_id: int) -> str | None:
        """The nonce of the open card of this inline message, or None (none, or closed)."""
        raw = await self.client.get(self.keys.inline_card(chat_id))
        return None if raw is None else _text(raw)

    @_translating_redis_errors
    async def close_inline_card(self, chat_id: int, nonce: str) -> bool:
        """Close the card (accepted, declined, withdrawn): its buttons act no more.

        True for the one caller that closed it (whichever worker asks), False if it was
        closed already or the message carries another card."""
        return bool(await self._close_card(keys=[self.keys.inline_card(chat_id)], args=[nonce]))

    # ------------------------------------------------------------- messages to tidy

    @_translating_redis_errors
    async def remember_message(self, chat_id: int, kind: str, message_id: int, ttl: float) -> None:
        """Note a message of the bot's that must go once it is moot (whichever process
        sends it and whichever sees it become moot)."""
        await self.client.set(self.keys.message(chat_id, kind), str(message_id), px=_ms(ttl))

    @_translating_redis_errors
    async def forget_message(self, chat_id: int, kind: str) -> int | None:
        """The noted message's id, removed from storage (None if there was none)."""
        raw = await self.client.getdel(self.keys.message(chat_id, kind))
        return None if raw is None else int(raw)

    # ------------------------------------------------------------- forum topics

    @_translating_redis_errors
    async def remember_topic(
        self, chat_id: int, place_key: int, thread_id: int, ttl: float = TOPIC_MEMORY_SECONDS
    ) -> None:
        """Note that a topic of ``chat_id`` (its thread ``thread_id``) hosts a table stored
        under ``place_key``; the note lives as long as the group keeps playing."""
        key = self.keys.topics(chat_id)
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hset(key, str(place_key), str(thread_id))
            pipe.pexpire(key, _ms(ttl))
            await pipe.execute()

    @_translating_redis_errors
    async def topics_of(self, chat_id: int) -> dict[int, int]:
        """The topics of ``chat_id`` that hosted a table: place key -> thread id."""
        raw = await self.client.hgetall(self.keys.topics(chat_id))
        return {int(k): int(v) for k, v in raw.items()}

    # ------------------------------------------------------------- deadlines

    @_translating_redis_errors
    async def set_deadline(self, chat_id: int, due_at: float) -> None:
        await self.client.zadd(self.keys.deadlines(chat_id), {str(chat_id): _ms(due_at)})

    @_translating_redis_errors
    async def clear_deadline(self, chat_id: int) -> None:
        await self.client.zrem(self.keys.deadlines(chat_id), str(chat_id))

    @_translating_redis_errors
    async def get_deadline(self, chat_id: int) -> float | None:
        score = await self.client.zscore(self.keys.deadlines(chat_id), str(chat_id))
        return None if score is None else score / 1000

    @_translating_redis_errors
    async def pending_deadlines(self, until: float | None = None) -> list[Deadline]:
        """All chats' turn deadlines (due by ``until`` if given), earliest first."""
        high: int | str = "+inf" if until is None else _ms(until)
        found: list[Deadline] = []
        for shard in range(TIMER_SHARDS):
            rows = await self.client.zrangebyscore(
                self.keys.shard_deadlines(shard), "-inf", high, withscores=True
            )
            found.extend(Deadline(member, score / 1000) for member, score in _scored(rows))
        return sorted(found, key=lambda d: (d.due_at, d.chat_id))

    # ------------------------------------------------------------- timers

    def _timer_set(self, kind: str, shard: int) -> str:
        if kind == DEADLINE:
            return self.keys.shard_deadlines(shard)
        if kind == REMINDER:
            return self.keys.shard_reminders(shard)
        raise ValueError(f"unknown timer kind {kind!r}")

    @_translating_redis_errors
    async def set_reminder(self, chat_id: int, at: float, *, deadline: float | None = None) -> bool:
        """Remind the chat's player at ``at`` (replacing any reminder of the chat).

        With ``deadline``, only while that is still the chat's deadline (else nothing is
        written and False returned): the reminder of an earlier turn, written late, never
        replaces the current turn's.
        """
        if deadline is None:
            await self.client.zadd(self.keys.reminders(chat_id), {str(chat_id): _ms(at)})
            return True
        keys = [self.keys.deadlines(chat_id), self.keys.reminders(chat_id)]
        return bool(await self._set_reminder(keys=keys, args=[chat_id, _ms(deadline), _ms(at)]))

    @_translating_redis_errors
    async def get_reminder(self, chat_id: int) -> float | None:
        score = await self.client.zscore(self.keys.reminders(chat_id), str(chat_id))
        return None if score is None else score / 1000

    @_translating_redis_errors
    async def clear_reminder(self, chat_id: int) -> None:
        await self.client.zrem(self.keys.reminders(chat_id), str(chat_id))

    @_translating_redis_errors
    async def cancel_timers(self, chat_id: int) -> None:
        """Stop every timer of the chat (its deadline and its reminder) in one step (both
        sets are in the chat's shard)."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.zrem(self.keys.deadlines(chat_id), str(chat_id))
            pipe.zrem(self.keys.reminders(chat_id), str(chat_id))
            await pipe.execute()

    @_translating_redis_errors
    async def claim_due_timers(self, kind: str, lease: float, most: int = 64) -> list[Timer]:
        """Up to ``most`` timers of ``kind`` due by now, earliest first, each claimed for
        ``lease`` seconds.

        Of several workers claiming at once, each due timer goes to exactly one. A claimed
        timer stays stored until :meth:`complete_timer`; if its worker dies first, the
        claim lapses after ``lease`` seconds and the next claimer gets it again: a timer
        is fired late rather than never. Each shard is claimed from in one script (its
        set and its leases share a slot): O(log n + claimed) per shard, all shards in one
        pipeline; what exceeds ``most`` is given back at once.
        """
        now_ms = _ms(self._clock())
        args: list[str | int] = [kind, now_ms, _ms(lease), most]
        every = [
            [self._timer_set(kind, shard), self.keys.timer_leases(shard)]
            for shard in range(TIMER_SHARDS)
        ]
        # Every shard in one pipeline: one round trip to a server, one per node of a
        # cluster (the cluster client groups the scripts by their keys' slots).
        async with self.client.pipeline(transaction=False) as pipe:
            for keys in every:
                # As a command: the cluster pipeline blocks its ``evalsha`` method, as it
                # cannot load a missing script on the right node; a NOSCRIPT reply is
                # answered below through the script object, which loads it.
                pipe.execute_command("EVALSHA", self._claim_timers.sha, len(keys), *keys, *args)
            replies = await pipe.execute(raise_on_error=False)
        claimed: list[Timer] = []
        for keys, answer in zip(every, replies, strict=True):
            reply = answer
            if isinstance(answer, NoScriptError):
                reply = await self._claim_timers(keys=keys, args=args)
            elif isinstance(answer, Exception):
                raise answer
            status = int(reply[0])
            if status != scripts.OK:
                self._raise_for_status(0, 0, status, int(reply[1]), keys)
            rows = reply[1:]
            claimed += [
                Timer(kind, _int(rows[i]), _int(rows[i + 1])) for i in range(0, len(rows), 2)
            ]
        claimed.sort(key=lambda t: (t.at_ms, t.chat_id))
        for extra in claimed[most:]:
            await self.release_timer(extra)
        return claimed[:most]

    @_translating_redis_errors
    async def complete_timer(self, timer: Timer) -> None:
        """The claimed timer has fired: remove it (unless a newer one replaced it since)
        and its claim."""
        shard = shard_of(timer.chat_id)
        keys = [self._timer_set(timer.kind, shard), self.keys.timer_leases(shard)]
        await self._complete_timer(keys=keys, args=[timer.kind, timer.chat_id, timer.at_ms])

    @_translating_redis_errors
    async def renew_timer(self, timer: Timer, lease: float) -> bool:
        """Extend a claimed timer's lease to ``lease`` seconds from now, while its worker is
        still firing it (a send waiting for Telegram's budget); False when the claim is no
        longer held (it lapsed, or the timer was completed)."""
        member = f"{timer.kind}:{timer.chat_id}:{timer.at_ms}"
        expiry = _ms(self._clock() + lease)
        key = self.keys.timer_leases(shard_of(timer.chat_id))
        return bool(await self.client.zadd(key, {member: expiry}, xx=True, ch=True))

    @_translating_redis_errors
    async def release_timer(self, timer: Timer) -> None:
        """Give a claimed timer back (its firing failed): the next claimer retries it."""
        member = f"{timer.kind}:{timer.chat_id}:{timer.at_ms}"
        await self.client.zrem(self.keys.timer_leases(shard_of(timer.chat_id)), member)

    # ----------------------------------------------------------------- names

    @_translating_redis_errors
    async def set_player_name(self, user_id: int, name: str) -> None:
        await self.client.hset(self.keys.names(), str(user_id), shorten_name(name))

    @_translating_redis_errors
    async def get_preferences(self, user_id: int) -> dict[str, str]:
        """A player's settings as stored (name -> value); empty when never changed."""
        raw = await self.client.hgetall(self.keys.preferences(user_id))
        return {_text(k) or "": _text(v) or "" for k, v in raw.items()}

    @_translating_redis_errors
    async def set_preference(self, user_id: int, name: str, value: str) -> None:
        """Set one of a player's settings; it survives restarts and applies everywhere."""
        await self.client.hset(self.keys.preferences(user_id), name, value)

    @_translating_redis_errors
    async def get_player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        values = await self.client.hmget(self.keys.names(), [str(u) for u in user_ids])
        return {u: _text(v) for u, v in zip(user_ids, values, strict=True) if v is not None}

    # ------------------------------------------------------- stats, ratings

    @_translating_redis_errors
    async def player_stats(self, user_id: int, chat_id: int | None = None) -> PlayerStats:
        """A player's record in a chat, or everywhere when ``chat_id`` is None."""
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.keys.stats(user_id, chat_id))
            pipe.hget(self.keys.names(), str(user_id))
            raw, name = await pipe.execute()
        fields = {_text(k): _text(v) for k, v in raw.items()}
        by_variant: dict[str, VariantStats] = {}
        for variant in VARIANTS:
            if f"{variant}:games" not in fields:
                continue
            try:
                counters = {
                    stat: int(fields.get(f"{variant}:{_STORED_FIELD.get(stat, stat)}", 0))
                    for stat in _STAT_FIELDS
                }
                rating = float(fields.get(f"{variant}:rating", self.config.start_rating))
            except ValueError as exc:
                reason = f"statistics of player {user_id} are unreadable: {exc}"
                raise StorageError(reason) from None
            by_variant[variant] = VariantStats(**counters, rating=rating)
        return PlayerStats(user_id, _text(name), by_variant)

    @_translating_redis_errors
    async def leaderboard(
        self, variant: str, chat_id: int | None = None, *, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardEntry]:
        """Players by rating in ``variant`` (in a chat, or everywhere), best first."""
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        rows = await self.client.zrevrange(
            self.keys.leaderboard(variant, chat_id), offset, offset + limit - 1, withscores=True
        )
        scored = _scored(rows)
        names = await self.get_player_names([user_id for user_id, _ in scored])
        return [
            LeaderboardEntry(offset + i + 1, user_id, names.get(user_id), score)
            for i, (user_id, score) in enumerate(scored)
        ]

    @_translating_redis_errors
    async def player_rank(
        self, user_id: int, variant: str, chat_id: int | None = None
    ) -> int | None:
        """1-based position in the leaderboard, None when the player has no rated match."""
        rank = await self.client.zrevrank(self.keys.leaderboard(variant, chat_id), str(user_id))
        return None if rank is None else _int(rank) + 1

    # ------------------------------------------------------------ places that change

    @_translating_redis_errors
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> Migration:
        """Move everything a chat owns to its new id (a group upgraded to a supergroup).

        The active game (mid-turn as it is, its version kept, its board message forgotten:
        it was in the old chat), its turn deadline, pending challenges, the next game's dice
        seed, finished games and records, the chat's leaderboards and players' statistics
        there. The keys are found first (indexes, and a SCAN for the families without one),
        checked, then moved key by key (the two ids live in different slots of a cluster):
        each key is written under the new id before it leaves the old one, so a move cut
        short loses nothing, and running it again (the second service message, a
        ``ChatMigrated`` error in another worker, a retry) finishes it and changes nothing
        more. A game already in the new chat is never overwritten.
        """
        if old_chat_id == new_chat_id:
            raise ValueError("a chat cannot move to itself")
        game_moved, moved = await self._move_game(old_chat_id, new_chat_id), 0
        for _ in range(3):
            pairs = await self._chat_records(old_chat_id, new_chat_id)
            await self._check_merges(pairs)
            done = 0
            for src, dst, mode in pairs:
                done += await self._move_key(src, dst, mode)
            if done == 0:
                break
            moved += done
        return Migration(game_moved, moved)

    async def _move_game(self, old: int, new: int) -> bool:
        """Move the active game of ``old`` (and its deadline) to ``new`` unless ``new``
        has a game of its own; True when the game is now under ``new``."""
        key = self.keys.game(old)
        try:
            raw = await self.client.hgetall(key)
        except ResponseError:
            raise CorruptGameError(old, "unexpected record under the game's key") from None
        game_id = raw.get(b"id")
        if game_id is None:
            return False
        ttl = int(await self.client.pttl(key))
        due = await self.client.zscore(self.keys.deadlines(old), str(old))
        fields = [x for k, v in raw.items() if k not in (b"msg", b"sv") for x in (k, v)]
        placed = await self._place_game(
            keys=[self.keys.game(new), self.keys.deadlines(new)],
            args=[game_id, ttl, new, "" if due is None else int(due), *fields],
        )
        if int(placed) == scripts.CORRUPT_OTHER:
            raise StorageError(f"unexpected value under {self.keys.deadlines(new)}: not moved")
        if int(placed) != 1:
            return False
        await self._discard(keys=[key, self.keys.deadlines(old)], args=[game_id, old])
        return True

    async def _check_merges(self, pairs: Sequence[tuple[str, str, str]]) -> None:
        """Refuse to move anything when a sorted set to merge holds something else."""
        merged = [key for src, dst, mode in pairs if mode == "u" for key in (src, dst)]
        async with self.client.pipeline(transaction=False) as pipe:
            for key in merged:
                pipe.type(key)
            kinds = await pipe.execute()
        for key, found in zip(merged, kinds, strict=True):
            if _text(found) not in ("none", "zset"):
                raise StorageError(f"unexpected value under {key}: nothing was moved")

    async def _move_key(self, src: str, dst: str, mode: str) -> int:
        """Move one key (1 if something was moved or dropped, else 0), safe to repeat.

        ``m``: copy ``src`` to ``dst`` (with its expiry) unless ``dst`` exists, then drop
        ``src``; a ``dst`` that holds something else wins and ``src`` stays. ``u``: merge
        two sorted sets (the higher score and the longer expiry win). ``d``: drop ``src``.
        """
        if mode == "d":
            return int(await self.client.delete(src))
        if mode == "u":
            rows = await self.client.zrange(src, 0, -1, withscores=True)
            if not rows:
                return 0
            ttl_src, ttl_dst = int(await self.client.pttl(src)), int(await self.client.pttl(dst))
            await self.client.zadd(dst, dict(_scored_text(rows)), gt=True)
            if ttl_src >= 0 and ttl_dst != -1:
                await self.client.pexpire(dst, max(ttl_src, ttl_dst, 1))
            await self.client.delete(src)
            return 1
        payload = await self.client.dump(src)
        if payload is None:
            return 0
        ttl = max(int(await self.client.pttl(src)), 0)
        try:
            await self.client.restore(dst, ttl, payload)
        except ResponseError as exc:
            if "BUSYKEY" not in str(exc):
                raise
            if await self.client.dump(dst) != payload:
                return 0  # another record is there: it wins, the old one stays
        await self.client.delete(src)
        return 1

    async def _chat_records(self, old: int, new: int) -> list[tuple[str, str, str]]:
        """(source, destination, mode) of every record of chat ``old`` but its game."""
        k = self.keys
        pairs: list[tuple[str, str, str]] = [
            (k.dice_seed(old), k.dice_seed(new), "m"),
            (k.challenges(old), k.challenges(new), "u"),
            (k.history(old), k.history(new), "u"),
            (k.records(old), k.records(new), "u"),
            *((k.leaderboard(v, old), k.leaderboard(v, new), "u") for v in VARIANTS),
        ]
        async with self.client.pipeline(transaction=False) as pipe:
            pipe.zrange(k.challenges(old), 0, -1)
            pipe.zrange(k.history(old), 0, -1)
            pipe.zrange(k.records(old), 0, -1)
            challenges, finished, kept = await pipe.execute()
        for member in challenges:
            pairs.append((k.challenge(old, _int(member)), k.challenge(new, _int(member)), "m"))
        for member in finished:
            pairs.append((k.finished(old, _int(member)), k.finished(new, _int(member)), "m"))
        for member in kept:
            game_id, _, number = _text(member).partition(":")
            pairs.append(
                (
                    k.record(old, int(game_id), int(number)),
                    k.record(new, int(game_id), int(number)),
                    "m",
                )
            )
        async for raw in self.client.scan_iter(match=k.chat_pattern("stats", old), count=1000):
            key = _text(raw)
            user = key.partition("{u:")[2].partition("}")[0]
            pairs.append((key, k.stats(int(user), new), "m"))
        # A reminder or prompt noted for tidying was sent in the old chat: nothing to tidy.
        async for raw in self.client.scan_iter(match=k.chat_pattern("msg", old), count=1000):
            pairs.append((_text(raw), _text(raw), "d"))
        return pairs

    @_translating_redis_errors
    async def mark_unreachable(self, chat_id: int, why: str, place_keys: Sequence[int]) -> bool:
        """Note that the bot can no longer reach a chat, and stop the turn clocks of its
        places (``place_keys``): their games are adjourned, kept as they are. Seen by every
        worker and after a restart. True only for the first caller (a kick update and the
        403s it explains may race). The clocks stop first, each in its place's shard, then
        the marker is set: a call cut short is completed by the next one."""
        async with self.client.pipeline(transaction=False) as pipe:
            for place in place_keys:
                pipe.zrem(self.keys.deadlines(place), str(place))
            await pipe.execute()
        before = await self.client.set(
            self.keys.away(chat_id), why, px=_ms(self.config.finished_game_ttl), get=True
        )
        return before is None

    @_translating_redis_errors
    async def mark_reachable(self, chat_id: int) -> str | None:
        """The chat is reachable again; returns why it was not (None: it was not marked),
        so of several workers seeing it come back only one resumes its games."""
        raw = await self.client.getdel(self.keys.away(chat_id))
        return None if raw is None else _text(raw)

    @_translating_redis_errors
    async def unreachable(self, chat_id: int) -> str | None:
        """Why the bot cannot reach the chat, or None when it can."""
        raw = await self.client.get(self.keys.away(chat_id))
        return None if raw is None else _text(raw)

    @_translating_redis_errors
    async def restart_deadline(self, chat_id: int, due_at: float) -> bool:
        """Start a stopped turn clock (an adjourned game resumed); a clock still running
        is left alone. True when the clock was started."""
        added = await self.client.zadd(
            self.keys.deadlines(chat_id), {str(chat_id): _ms(due_at)}, nx=True
        )
        return bool(added)

    # ------------------------------------------------------------- key layout

    async def migrate_key_layout(self) -> int:
        """Move the keys of the first layout (no hash tags: ``<prefix>:game:<chat>``, one
        global ``deadlines`` set...) to the current one (see :mod:`storage.keys`); returns
        how many keys were moved. Run at start-up, before any update is handled.

        Once done, a marker makes it one GET. Every step is safe to repeat, so workers
        starting together, or a start cut short, leave nothing half-moved: a key is copied
        under its new name before the old one goes, and a new key already there (written
        by an upgraded worker) wins. Not subject to ``call_timeout``: a large store takes a
        while (one SCAN of the keyspace), once.
        """
        try:
            if _text(await self.client.get(self.keys.layout())) == str(LAYOUT_VERSION):
                return 0
            moved = 0
            async for raw in self.client.scan_iter(match=f"{self.config.prefix}:*", count=1000):
                key = _text(raw)
                rest = key[len(self.config.prefix) + 1 :]
                if "{" in rest:
                    continue
                moved += await self._migrate_old_key(key, rest)
            await self.client.set(self.keys.layout(), str(LAYOUT_VERSION))
            return moved
        except (RedisConnectionError, RedisTimeoutError) as exc:
            raise StorageUnavailableError(f"Redis connection lost: {exc}") from exc
        except RedisError as exc:
            raise StorageError(f"Redis error while moving the keys: {exc}") from exc

    async def _migrate_old_key(self, key: str, rest: str) -> int:
        """Move one key of the first layout (``rest``: its name after the prefix)."""
        k = self.keys
        family, _, tail = rest.partition(":")
        parts = tail.split(":")
        try:
            if family in ("deadlines", "reminders"):
                return await self._split_timer_set(key, family)
            if family == "timer-leases":
                return int(await self.client.delete(key))  # claims lapse by themselves
            if family == "stats" and parts[0] == "g":
                return await self._move_key(key, k.stats(int(parts[1])), "m")
            if family == "stats" and parts[0] == "c":
                return await self._move_key(key, k.stats(int(parts[2]), int(parts[1])), "m")
            if family == "prefs":
                return await self._move_key(key, k.preferences(int(parts[0])), "m")
            if family == "lb" and parts[0] == "c":
                return await self._move_key(key, k.leaderboard(parts[2], int(parts[1])), "m")
            if family in _PLACE_FAMILIES:
                # The place's keys keep their names, behind the place's shard tag.
                new = f"{self.config.prefix}:{{s:{shard_of(int(parts[0]))}}}:{rest}"
                return await self._move_key(key, new, "m")
        except (ValueError, IndexError):
            return 0  # not a key of ours: left alone
        return 0  # global keys keep their names (names, sequences, global boards, markers)

    async def _split_timer_set(self, key: str, family: str) -> int:
        """Spread a first-layout timer set (every chat) over the shards' sets; a timer the
        new layout holds already (set by an upgraded worker) wins."""
        rows = await self.client.zrange(key, 0, -1, withscores=True)
        by_shard: dict[int, dict[str, float]] = {}
        for chat, score in _scored_text(rows):
            by_shard.setdefault(shard_of(int(chat)), {})[chat] = score
        for shard, timers in by_shard.items():
            target = (
                self.keys.shard_deadlines(shard)
                if family == "deadlines"
                else self.keys.shard_reminders(shard)
            )
            await self.client.zadd(target, timers, nx=True)
        await self.client.delete(key)
        return 1


#: Families of the first key layout named after a place (``<family>:<place>[:...]``).
_PLACE_FAMILIES = frozenset(
    {
        "game",
        "done",
        "history",
        "rec",
        "recs",
        "seed",
        "challenge",
        "challenges",
        "msg",
        "topics",
        "away",
        "icard",
    }
)
