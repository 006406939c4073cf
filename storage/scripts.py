"""Lua scripts: each state transition is one atomic server-side step and one round trip.

Every script declares all its keys and they share one hash slot (see :mod:`storage.keys`), so
each runs on a Redis or Valkey Cluster as on one server: the keys of one place with its
shard's timer sets, or the keys of one player. What spans places or players (finishing a
game, moving a chat) is a sequence of such steps, each safe to repeat.

Redis does not roll a script back when it fails half-way, so every script reads and validates
all it needs first and only then writes: a corrupted record makes a script return an error code
before it has changed anything.

Status codes (first element of the reply): 1 done, 0 version conflict (second element: the
current version), -1 game gone, -2 chat busy (second: the active game id), -3 game record
corrupted, -4 challenge gone, -5 another record corrupted (second: index of its key).
"""

from __future__ import annotations

OK = 1
CONFLICT = 0
GONE = -1
BUSY = -2
CORRUPT_GAME = -3
CHALLENGE_GONE = -4
CORRUPT_OTHER = -5

_PRELUDE = """
local function kind(key)
  return redis.call('TYPE', key)['ok']
end

-- Is KEYS game the game ARGV game_id at version expected?  Returns status, current version.
local function check(key, game_id, expected)
  local t = kind(key)
  if t == 'none' then return -1, 0 end
  if t ~= 'hash' then return -3, 0 end
  local cur = redis.call('HMGET', key, 'v', 'id')
  if cur[2] ~= game_id then return -1, 0 end
  local v = tonumber(cur[1])
  if not v then return -3, 0 end
  if v ~= tonumber(expected) then return 0, v end
  return 1, v
end

local function apply_deadline(zkey, chat, mode, due)
  if mode == 'set' then
    redis.call('ZADD', zkey, due, chat)
  elseif mode == 'clear' then
    redis.call('ZREM', zkey, chat)
  end
end
"""

# Every script touches the keys of one hash slot only (see storage.keys): the keys of one
# place and its shard's timer sets, or the keys of one player. What spans slots is done in
# steps, each safe to repeat.

# KEYS: game, deadlines (the place's shard), challenge, challenge index
# ARGV: doc, idle ttl ms, now ms, chat id, deadline mode, due ms, challenge id or '', game id
# The game id is taken from the global sequence beforehand (a key of its own slot): an id
# lost to a refusal (the chat plays already) leaves a gap, never a duplicate.
CREATE_GAME = (
    _PRELUDE
    + """
local t = kind(KEYS[1])
if t == 'hash' then
  return {-2, tonumber(redis.call('HGET', KEYS[1], 'id')) or 0}
elseif t ~= 'none' then
  return {-3, 0}
end
local zt = kind(KEYS[2])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 2} end
if ARGV[7] ~= '' then
  if redis.call('DEL', KEYS[3]) == 0 then return {-4, 0} end
  redis.call('ZREM', KEYS[4], ARGV[7])
end
local id = ARGV[8]
redis.call('HSET', KEYS[1], 'v', 1, 'id', id, 'doc', ARGV[1], 'ts', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
apply_deadline(KEYS[2], ARGV[4], ARGV[5], ARGV[6])
return {1, tonumber(id)}
"""
)

# KEYS: game, deadlines
# ARGV: game id, expected version, doc, idle ttl ms, now ms, chat id, deadline mode, due ms
SAVE_GAME = (
    _PRELUDE
    + """
local status, v = check(KEYS[1], ARGV[1], ARGV[2])
if status ~= 1 then return {status, v} end
local zt = kind(KEYS[2])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 2} end
v = v + 1
redis.call('HSET', KEYS[1], 'v', v, 'doc', ARGV[3], 'ts', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
apply_deadline(KEYS[2], ARGV[6], ARGV[7], ARGV[8])
return {1, v}
"""
)

# The place's side of finishing a game: the version-checked save, the archive and history
# when the match ends, and the statistics to count queued in the shard (they live in the
# players' slots: COUNT_RESULT counts them next, and a worker takes over a queued entry
# whose writer died).
# KEYS: 1 game, 2 deadlines, 3 archive, 4 history, 5 statistics to count (shard)
# ARGV: 1 game id, 2 expected version, 3 doc, 4 idle ttl ms, 5 now ms, 6 chat id,
#       7 deadline mode, 8 due ms, 9 finished ttl ms, 10 result JSON, 11 ends match '1'/'0',
#       12 history cutoff ms, 13 what to count (JSON), 14 when a worker may take it over (ms)
FINISH_GAME = (
    _PRELUDE
    + """
local status, v = check(KEYS[1], ARGV[1], ARGV[2])
if status ~= 1 then return {status, v} end
for i, want in pairs({[2] = 'zset', [4] = 'zset', [5] = 'zset'}) do
  local t = kind(KEYS[i])
  if t ~= 'none' and t ~= want then return {-5, i} end
end
-- all checks passed: from here on only writes
v = v + 1
redis.call('HSET', KEYS[1], 'v', v, 'doc', ARGV[3], 'ts', ARGV[5])
if ARGV[11] == '1' then
  redis.call('HSET', KEYS[1], 'result', ARGV[10], 'fin', ARGV[5])
  redis.call('RENAME', KEYS[1], KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[9])
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[12])
  redis.call('PEXPIRE', KEYS[4], ARGV[9])
  redis.call('ZREM', KEYS[2], ARGV[6])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  apply_deadline(KEYS[2], ARGV[6], ARGV[7], ARGV[8])
end
redis.call('ZADD', KEYS[5], ARGV[14], ARGV[13])
return {1, v}
"""
)

# Count one finished game in one statistics hash of a player, once: the result's token is
# remembered in the player's ``counted`` set (same slot), so a repeated step changes nothing.
# KEYS: 1 statistics hash, 2 counted results
# ARGV: 1 token, 2 now ms, 3 forget tokens older than (ms), 4 variant, 5 start rating,
#       6 rating change, then the increments of: games wins losses draws points
#       points_against matches match_wins match_losses match_draws exp money_games
#       money_points money_points_against (the last three absent in counts queued before
#       money games: 0)
# Reply: {1 counted now / 0 counted before, the rating after (formatted)}, or {-5, 1}.
COUNT_RESULT = (
    _PRELUDE
    + """
local t = kind(KEYS[1])
if t ~= 'none' and t ~= 'hash' then return {-5, 1} end
local zt = kind(KEYS[2])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 2} end
local variant = ARGV[4]
local fields = {'games', 'wins', 'losses', 'draws', 'points', 'points_against', 'matches',
                'match_wins', 'match_losses', 'match_draws', 'exp', 'money_games',
                'money_points', 'money_points_against'}
local names = {variant .. ':rating'}
for i, f in ipairs(fields) do names[i + 1] = variant .. ':' .. f end
local raw = redis.call('HMGET', KEYS[1], unpack(names))
for i = 1, #raw do
  if raw[i] and not tonumber(raw[i]) then return {-5, 1} end
end
local rating = tonumber(raw[1]) or tonumber(ARGV[5])
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  return {0, string.format('%.3f', rating)}
end
rating = rating + tonumber(ARGV[6])
local args = {variant .. ':rating', string.format('%.3f', rating)}
for i, f in ipairs(fields) do
  args[#args + 1] = variant .. ':' .. f
  local inc = tonumber(ARGV[6 + i] or '0')
  args[#args + 1] = string.format('%d', (tonumber(raw[i + 1]) or 0) + inc)
end
redis.call('HSET', KEYS[1], unpack(args))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[3])
return {1, string.format('%.3f', rating)}
"""
)

# KEYS: 1 a shard's statistics to count   ARGV: 1 now ms, 2 lease ms, 3 most
# The entries whose take-over time has come (their writer died or stalled), each pushed a
# lease further so that one worker at a time counts it (counting twice changes nothing).
CLAIM_COUNTS = """
local rows = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(rows) do
  redis.call('ZADD', KEYS[1], 'XX', tonumber(ARGV[1]) + tonumber(ARGV[2]), member)
end
return rows
"""

# KEYS: game, deadlines   ARGV: game id or '' (any), chat id
DISCARD_GAME = (
    _PRELUDE
    + """
if ARGV[1] ~= '' then
  if kind(KEYS[1]) ~= 'hash' then return 0 end
  if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
end
local n = redis.call('DEL', KEYS[1])
if kind(KEYS[2]) == 'zset' then redis.call('ZREM', KEYS[2], ARGV[2]) end
return n
"""
)

# KEYS: game   ARGV: game id, message id
SET_BOARD_MESSAGE = (
    _PRELUDE
    + """
if kind(KEYS[1]) ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[2])
return 1
"""
)

# KEYS: game   ARGV: game id, version shown, message id or '' (keep)
# Only forward: an older version than the one recorded (a slow redraw that finished after a
# newer one) or a version the game has not reached changes nothing.
MARK_SHOWN = (
    _PRELUDE
    + """
if kind(KEYS[1]) ~= 'hash' then return 0 end
local cur = redis.call('HMGET', KEYS[1], 'id', 'v', 'sv')
if cur[1] ~= ARGV[1] then return 0 end
local shown = tonumber(ARGV[2])
local saved = tonumber(cur[2])
if not saved or shown > saved then return 0 end
local before = tonumber(cur[3])
if before and shown < before then return 0 end
if ARGV[3] == '' then
  redis.call('HSET', KEYS[1], 'sv', ARGV[2])
else
  redis.call('HSET', KEYS[1], 'sv', ARGV[2], 'msg', ARGV[3])
end
return 1
"""
)

# KEYS: 1 a timer set (chat id -> due ms), 2 the leases of claimed timers
# ARGV: 1 kind (names the set in a lease), 2 now ms, 3 lease ms, 4 most to claim
# Reply: {1, chat, due, chat, due, ...} with each due formatted as an integer of ms; a chat
# already claimed under a live lease is skipped, so of N workers polling at once exactly one
# gets each due timer, and a lease that lapses (its worker died) frees it for another.
CLAIM_TIMERS = (
    _PRELUDE
    + """
for i = 1, 2 do
  local t = kind(KEYS[i])
  if t ~= 'none' and t ~= 'zset' then return {-5, i} end
end
local now = tonumber(ARGV[2])
local most = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local rows = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES',
                        'LIMIT', 0, most + redis.call('ZCARD', KEYS[2]))
local out = {1}
local claimed = 0
for i = 1, #rows, 2 do
  local due = string.format('%.0f', tonumber(rows[i + 1]))
  local lease = ARGV[1] .. ':' .. rows[i] .. ':' .. due
  if not redis.call('ZSCORE', KEYS[2], lease) then
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), lease)
    out[#out + 1] = rows[i]
    out[#out + 1] = due
    claimed = claimed + 1
    if claimed >= most then break end
  end
end
return out
"""
)

# KEYS: 1 a timer set, 2 the leases   ARGV: 1 kind, 2 chat id, 3 due ms (as claimed)
# The timer leaves its set only if it is still the one that was claimed (a newer turn may
# have set a new one meanwhile); its lease goes in any case.
COMPLETE_TIMER = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[2])
if due and string.format('%.0f', tonumber(due)) == ARGV[3] then
  redis.call('ZREM', KEYS[1], ARGV[2])
end
redis.call('ZREM', KEYS[2], ARGV[1] .. ':' .. ARGV[2] .. ':' .. ARGV[3])
return 1
"""

# A chat's game moving to the chat's new id (a group upgraded to a supergroup), the new
# place's side: the game is written there unless another game is there already.
# KEYS: 1 new game, 2 new place's deadlines   ARGV: 1 game id, 2 ttl ms (-1: none),
#       3 new chat id, 4 deadline ms or '', then the game's fields and values
# Reply: 1 written (or written before: the same game id is there), 0 another game is there,
# -5 the new place's deadlines hold something else (nothing written).
PLACE_GAME = (
    _PRELUDE
    + """
local t = kind(KEYS[1])
if t == 'hash' then
  if redis.call('HGET', KEYS[1], 'id') == ARGV[1] then return 1 end
  return 0
elseif t ~= 'none' then
  return 0
end
local zt = kind(KEYS[2])
if zt ~= 'none' and zt ~= 'zset' then return -5 end
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3]) end
return 1
"""
)

# KEYS[1] = an inline message's card; ARGV[1] = the card's nonce. Deletes the key only when it
# holds that card: 1 if this call closed it, 0 if it was closed already or holds another.
CLOSE_INLINE_CARD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

# KEYS: 1 deadlines, 2 reminders   ARGV: 1 chat id, 2 the deadline ms it belongs to, 3 at ms
# A reminder is set only while its turn's deadline is the one stored: a late writer for an
# earlier turn cannot replace the reminder of the turn in force.
SET_REMINDER = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due or string.format('%.0f', tonumber(due)) ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""
