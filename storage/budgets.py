"""Telegram's flood budgets of one bot token, counted in Redis for every worker at once.

Telegram counts its limits per bot token and per chat, whatever the number of processes
sending: about 30 requests a second in all, 20 a minute in one group (edits included), about
one a second in a private chat with short bursts tolerated. So the budgets live here, shared
by every worker, and one Lua script both checks and takes them in one round trip:

- the bot's budget and a group's (or an inline message's) are rolling windows, "at most N in
  any T": a sorted set of the requests sent, scored by date;
- a private chat's is a token bucket (GCRA: one "theoretical arrival time" in a hash), a
  burst of ``count`` refilled at ``count / period`` a second; a private chat has at most one
  request in flight (one chat, one reader: nothing is lost by sending its requests in turn);
- a 429 pauses a chat (or the bot) for every worker: a key that expires with the pause.

A request is dated by its answer, not its sending. Telegram receives it somewhere between the
two; the check happens before sending and the date is set once answered (:meth:`settle`,
after the answer, off the caller's path), so Telegram never sees two requests closer than the
budget allows, whatever the latency. Until settled, a request counts as answered right now
(for how long the next one waits) and holds its place for at most ``hold_ms`` (a worker that
dies with requests in flight frees their places then).

Every key of one token's budgets shares one hash tag (``{budget:<bot id>}``): each script
touches one slot of a cluster. That slot cannot be hot: the budgets it keeps cap the whole
bot at about 30 requests a second.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import StrEnum

from redis.exceptions import RedisError

from storage.connect import Client
from storage.errors import StorageUnavailableError

#: How long an unanswered request keeps its place (longer than any request's timeouts).
HOLD_MS = 30_000
#: How long a worker waits before asking again while a private chat's request is in flight
#: (its own settling wakes it sooner; another worker's does not).
IN_FLIGHT_POLL_MS = 50


class ChatKind(StrEnum):
    """The budget of a chat: a rolling window (groups, channels, inline messages), a token
    bucket (private chats), or none (only the bot's budget applies)."""

    WINDOW = "window"
    BUCKET = "bucket"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Budget:
    """``count`` requests per ``period`` seconds (0: no limit)."""

    count: int
    period: float

    @property
    def period_ms(self) -> int:
        return max(int(self.period * 1000), 1)


# KEYS: 1 the bot's window, 2 the bot's pause, 3 the chat's window or bucket, 4 its pause
# ARGV: 1 request id, 2 hold ms, 3 bot count, 4 bot period ms, 5 chat kind, 6 chat count,
#       7 chat period ms, 8 action, 9 poll ms while a private chat's request is in flight,
#       10 pause ms of the chat, 11 pause ms of the bot (both for "refused")
# Actions: "take" the budgets if they allow; "look" only; "ok" date an answered request now;
# "refused" give a refused request's place back and pause as told.
# Reply: {1 if taken or settled else 0, wait ms, of which the chat's own wait ms}: the wait
# before this request may go (not taken), or before the next one may (taken, settled).
BUDGETS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id, hold, action = ARGV[1], tonumber(ARGV[2]), ARGV[8]
local bot_count, bot_period = tonumber(ARGV[3]), tonumber(ARGV[4])
local kind, count, period = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local chat = KEYS[3] ~= nil
if kind ~= 'none' and count <= 0 then kind = 'none' end

local function window_wait(key, n_max, span)
  if n_max <= 0 then return 0 end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  local n = redis.call('ZCARD', key)
  if n < n_max then return 0 end
  local oldest = redis.call('ZRANGE', key, n - n_max, n - n_max, 'WITHSCORES')
  -- an unanswered request (dated in the future) counts as answered now
  return math.min(tonumber(oldest[2]), now) + span - now
end
local function pause_wait(key)
  local left = redis.call('PTTL', key)
  if left > 0 then return left end
  return 0
end
-- GCRA: a burst of count, one more every period / count; tat is when the bucket is full
-- again; a request in flight counts as answered now, and holds the next one (poll).
local function bucket_wait(with_poll)
  local state = redis.call('HMGET', KEYS[3], 'tat', 'fly', 'until')
  local interval = period / count
  local tat = math.max(tonumber(state[1] or 0), now)
  local flying = state[2] and tonumber(state[3] or 0) > now
  if flying then tat = tat + interval end
  local wait = math.max(tat - (count - 1) * interval - now, 0)
  if flying and with_poll then wait = math.max(wait, tonumber(ARGV[9])) end
  return wait, tat
end
local function waits(with_poll)
  local bot = math.max(pause_wait(KEYS[2]), window_wait(KEYS[1], bot_count, bot_period))
  local own = 0
  if chat then own = pause_wait(KEYS[4]) end
  if kind == 'window' then
    own = math.max(own, window_wait(KEYS[3], count, period))
  elseif kind == 'bucket' then
    own = math.max(own, (bucket_wait(with_poll)))
  end
  return math.ceil(math.max(bot, own)), math.ceil(own)
end
local function pause(key, ms)
  if ms > 0 and redis.call('PTTL', key) < ms then redis.call('SET', key, '1', 'PX', ms) end
end

if action == 'take' or action == 'look' then
  local wait, own = waits(true)
  if wait > 0 or action == 'look' then return {0, wait, own} end
  if bot_count > 0 then
    redis.call('ZADD', KEYS[1], now + hold, id)
    redis.call('PEXPIRE', KEYS[1], bot_period + hold)
  end
  if kind == 'window' then
    redis.call('ZADD', KEYS[3], now + hold, id)
    redis.call('PEXPIRE', KEYS[3], period + hold)
  elseif kind == 'bucket' then
    local _, tat = bucket_wait(false)
    redis.call('HSET', KEYS[3], 'fly', id, 'until', now + hold)
    redis.call('PEXPIRE', KEYS[3], math.ceil(tat - now) + period + hold)
  end
  wait, own = waits(false)
  return {1, wait, own}
end

local ok = action == 'ok'
if ok then
  redis.call('ZADD', KEYS[1], 'XX', now, id)
else
  redis.call('ZREM', KEYS[1], id)
  pause(KEYS[2], tonumber(ARGV[11]))
  if chat then pause(KEYS[4], tonumber(ARGV[10])) end
end
if kind == 'window' then
  if ok then redis.call('ZADD', KEYS[3], 'XX', now, id)
  else redis.call('ZREM', KEYS[3], id) end
elseif kind == 'bucket' then
  if redis.call('HGET', KEYS[3], 'fly') == id then
    redis.call('HDEL', KEYS[3], 'fly', 'until')
    if ok then
      local tat = math.max(tonumber(redis.call('HGET', KEYS[3], 'tat') or 0), now)
      tat = math.ceil(tat + period / count)
      redis.call('HSET', KEYS[3], 'tat', tat)
      redis.call('PEXPIRE', KEYS[3], tat - now + period)
    end
  end
end
local wait, own = waits(false)
return {1, wait, own}
"""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the budgets said: whether the request was ``taken`` (or settled), and ``wait``
    seconds before it may go (not taken) or before the next one may (taken, settled), of
    which ``chat_wait`` are the chat's own (its budget, its pause)."""

    taken: bool
    wait: float
    chat_wait: float


class SharedBudgets:
    """The budgets of one bot token, in Redis (see the module's docstring)."""

    def __init__(
        self,
        client: Client,
        prefix: str,
        bot_id: int,
        *,
        overall: Budget,
        hold_ms: int = HOLD_MS,
    ) -> None:
        self.client = client
        self.overall = overall
        self.hold_ms = hold_ms
        self._base = f"{prefix}:{{budget:{bot_id}}}"
        self._script = client.register_script(BUDGETS)

    def keys(self, chat: int | str | None) -> list[str]:
        """The bot's window and pause, then the chat's budget and pause (if a chat)."""
        keys = [f"{self._base}:all", f"{self._base}:pause"]
        if chat is not None:
            keys += [f"{self._base}:chat:{chat}", f"{self._base}:pause:{chat}"]
        return keys

    @staticmethod
    def new_request_id() -> str:
        """A request's place in the budgets, unique across workers."""
        return uuid.uuid4().hex[:16]

    async def take(
        self,
        request_id: str,
        chat: int | str | None,
        kind: ChatKind,
        budget: Budget,
        *,
        count_overall: bool = True,
        consume: bool = True,
    ) -> Verdict:
        """Take a place in the bot's budget and the chat's when both allow, else say how
        long to wait; with ``consume`` False, only look."""
        return await self._run(
            "take" if consume else "look", request_id, chat, kind, budget, count_overall
        )

    async def settle(
        self,
        request_id: str,
        chat: int | str | None,
        kind: ChatKind,
        budget: Budget,
        *,
        answered: bool,
        chat_pause: float = 0.0,
        overall_pause: float = 0.0,
    ) -> Verdict:
        """Date a request by its answer (``answered``), or give its place back after a 429
        and pause the chat (or the bot) for every worker."""
        return await self._run(
            "ok" if answered else "refused",
            request_id,
            chat,
            kind,
            budget,
            True,
            (chat_pause, overall_pause),
        )

    async def _run(
        self,
        action: str,
        request_id: str,
        chat: int | str | None,
        kind: ChatKind,
        budget: Budget,
        count_overall: bool,
        pauses: tuple[float, float] = (0.0, 0.0),
    ) -> Verdict:
        overall = self.overall if count_overall else Budget(0, self.overall.period)
        args: list[str | int] = [
            request_id,
            self.hold_ms,
            overall.count,
            overall.period_ms,
            kind.value,
            budget.count,
            budget.period_ms,
            action,
            IN_FLIGHT_POLL_MS,
            int(pauses[0] * 1000),
            int(pauses[1] * 1000),
        ]
        try:
            taken, wait_ms, chat_ms = await self._script(keys=self.keys(chat), args=args)
        except RedisError as exc:
            raise StorageUnavailableError(f"budgets: {exc}") from exc
        return Verdict(int(taken) == 1, int(wait_ms) / 1000, int(chat_ms) / 1000)
