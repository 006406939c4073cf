"""Lua scripts: each state transition is one atomic server-side step and one round trip.

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

# KEYS: game, game seq, deadlines, challenge, challenge index
# ARGV: doc, idle ttl ms, now ms, chat id, deadline mode, due ms, challenge id or ''
CREATE_GAME = (
    _PRELUDE
    + """
local t = kind(KEYS[1])
if t == 'hash' then
  return {-2, tonumber(redis.call('HGET', KEYS[1], 'id')) or 0}
elseif t ~= 'none' then
  return {-3, 0}
end
local zt = kind(KEYS[3])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 3} end
if ARGV[7] ~= '' then
  if redis.call('DEL', KEYS[4]) == 0 then return {-4, 0} end
  redis.call('ZREM', KEYS[5], ARGV[7])
end
local id = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'v', 1, 'id', id, 'doc', ARGV[1], 'ts', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
apply_deadline(KEYS[3], ARGV[4], ARGV[5], ARGV[6])
return {1, id}
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

# KEYS: 1 game, 2 deadlines, 3 archive, 4 history, 5 names,
#       6 stats A chat, 7 stats B chat, 8 stats A global, 9 stats B global,
#       10 leaderboard chat, 11 leaderboard global
# ARGV: 1 game id, 2 expected version, 3 doc, 4 idle ttl ms, 5 now ms, 6 chat id,
#       7 deadline mode, 8 due ms, 9 finished ttl ms, 10 result JSON, 11 variant,
#       12 match length, 13 ends match '1'/'0', 14 id A, 15 id B, 16 name A, 17 name B,
#       18 outcome of A 'w'/'l'/'d', 19 points A, 20 points B, 21 start rating,
#       22 history cutoff ms, 23 chat-scoped statistics '1'/'0' (a game played in an inline
#       message has no chat: keys 6, 7 and 10 are then left alone)
FINISH_GAME = (
    _PRELUDE
    + """
local status, v = check(KEYS[1], ARGV[1], ARGV[2])
if status ~= 1 then return {status, v} end

local expected_kind = {[2] = 'zset', [4] = 'zset', [5] = 'hash', [6] = 'hash', [7] = 'hash',
                       [8] = 'hash', [9] = 'hash', [10] = 'zset', [11] = 'zset'}
for i, want in pairs(expected_kind) do
  local t = kind(KEYS[i])
  if t ~= 'none' and t ~= want then return {-5, i} end
end

local variant = ARGV[11]
local fields = {'games', 'wins', 'losses', 'draws', 'points', 'points_against', 'matches',
                'match_wins', 'match_losses', 'match_draws', 'rating', 'exp'}
local start = tonumber(ARGV[21])

local function read(key)
  local names = {}
  for i, f in ipairs(fields) do names[i] = variant .. ':' .. f end
  local raw = redis.call('HMGET', key, unpack(names))
  local s = {}
  for i, f in ipairs(fields) do
    local x = raw[i]
    if x then
      x = tonumber(x)
      if not x then return nil end
    elseif f == 'rating' then
      x = start
    else
      x = 0
    end
    s[f] = x
  end
  return s
end

local stats = {}
for i = 6, 9 do
  stats[i] = read(KEYS[i])
  if not stats[i] then return {-5, i} end
end

-- all checks passed: from here on only writes
local ends = ARGV[13] == '1'
local n = tonumber(ARGV[12])
local opposite = {w = 'l', l = 'w', d = 'd'}
local score = {w = 1, l = 0, d = 0.5}
local out_a = ARGV[18]
local out_b = opposite[out_a]
local pts_a = tonumber(ARGV[19])
local pts_b = tonumber(ARGV[20])

local function count(s, o, mine, theirs)
  s.games = s.games + 1
  if o == 'w' then s.wins = s.wins + 1 elseif o == 'l' then s.losses = s.losses + 1
  else s.draws = s.draws + 1 end
  s.points = s.points + mine
  s.points_against = s.points_against + theirs
  if ends then
    s.matches = s.matches + 1
    if o == 'w' then s.match_wins = s.match_wins + 1
    elseif o == 'l' then s.match_losses = s.match_losses + 1
    else s.match_draws = s.match_draws + 1 end
  end
end

local function change(me, other, o)
  local p = 1 / (1 + 10 ^ (-(me.rating - other.rating) * math.sqrt(n) / 2000))
  local k = math.max(1, 5 - me.exp / 100)
  return k * 4 * math.sqrt(n) * (score[o] - p)
end

local before_a, before_b = stats[8].rating, stats[9].rating
for _, pair in ipairs({{6, 7}, {8, 9}}) do
  local a, b = stats[pair[1]], stats[pair[2]]
  count(a, out_a, pts_a, pts_b)
  count(b, out_b, pts_b, pts_a)
  if ends then
    local da, db = change(a, b, out_a), change(b, a, out_b)
    a.rating = a.rating + da
    b.rating = b.rating + db
    a.exp = a.exp + n
    b.exp = b.exp + n
  end
end

local function fmt_rating(x) return string.format('%.3f', x) end
local in_chat = ARGV[23] ~= '0'
for i = 6, 9 do
  if i >= 8 or in_chat then
    local s = stats[i]
    local args = {}
    for _, f in ipairs(fields) do
      args[#args + 1] = variant .. ':' .. f
      if f == 'rating' then args[#args + 1] = fmt_rating(s[f])
      else args[#args + 1] = string.format('%d', s[f]) end
    end
    redis.call('HSET', KEYS[i], unpack(args))
  end
end
if ends then
  if in_chat then
    redis.call('ZADD', KEYS[10], fmt_rating(stats[6].rating), ARGV[14],
               fmt_rating(stats[7].rating), ARGV[15])
  end
  redis.call('ZADD', KEYS[11], fmt_rating(stats[8].rating), ARGV[14],
             fmt_rating(stats[9].rating), ARGV[15])
end
redis.call('HSET', KEYS[5], ARGV[14], ARGV[16], ARGV[15], ARGV[17])

v = v + 1
redis.call('HSET', KEYS[1], 'v', v, 'doc', ARGV[3], 'ts', ARGV[5])
if ends then
  redis.call('HSET', KEYS[1], 'result', ARGV[10], 'fin', ARGV[5])
  redis.call('RENAME', KEYS[1], KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[9])
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[22])
  redis.call('PEXPIRE', KEYS[4], ARGV[9])
  redis.call('ZREM', KEYS[2], ARGV[6])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  apply_deadline(KEYS[2], ARGV[6], ARGV[7], ARGV[8])
end
return {1, v, fmt_rating(before_a), fmt_rating(stats[8].rating),
        fmt_rating(before_b), fmt_rating(stats[9].rating)}
"""
)

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

# KEYS: 1 old game, 2 new game, 3 deadlines, then pairs (source, destination), one per mode
# ARGV: 1 old chat id, 2 new chat id, then one mode per pair: 'm' move (a destination that
#       exists already wins, the source stays), 'u' merge two sorted sets (the higher score
#       and the longer expiry win), 'd' drop the source
# Reply: {1, game moved 1/0, keys moved or dropped}, or an error status as above.
# Idempotent: whatever was moved is no longer under the old chat, so a second run (the other
# service message, a ChatMigrated error) finds nothing and changes nothing.
MIGRATE_CHAT = (
    _PRELUDE
    + """
local t = kind(KEYS[1])
if t ~= 'none' and t ~= 'hash' then return {-3, 0} end
local nt = kind(KEYS[2])
if nt ~= 'none' and nt ~= 'hash' then return {-5, 2} end
local zt = kind(KEYS[3])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 3} end
local pairs_count = #ARGV - 2
for i = 1, pairs_count do
  if ARGV[2 + i] == 'u' then
    for _, k in ipairs({2 + 2 * i, 3 + 2 * i}) do
      local kt = kind(KEYS[k])
      if kt ~= 'none' and kt ~= 'zset' then return {-5, k} end
    end
  end
end

-- all checks passed: from here on only writes
local moved = 0
if t == 'hash' and nt == 'none' then
  redis.call('RENAME', KEYS[1], KEYS[2])
  redis.call('HDEL', KEYS[2], 'msg', 'sv')  -- the board message was in the old chat
  moved = 1
end
if zt == 'zset' then
  local due = redis.call('ZSCORE', KEYS[3], ARGV[1])
  if due then
    redis.call('ZREM', KEYS[3], ARGV[1])
    if moved == 1 then redis.call('ZADD', KEYS[3], due, ARGV[2]) end
  end
end
local n = 0
for i = 1, pairs_count do
  local src, dst, mode = KEYS[2 + 2 * i], KEYS[3 + 2 * i], ARGV[2 + i]
  if kind(src) ~= 'none' then
    if mode == 'd' then
      redis.call('DEL', src)
      n = n + 1
    elseif mode == 'm' then
      if kind(dst) == 'none' then
        redis.call('RENAME', src, dst)
        n = n + 1
      end
    else
      local ttl_src = redis.call('PTTL', src)
      local ttl_dst = redis.call('PTTL', dst)
      redis.call('ZUNIONSTORE', dst, 2, dst, src, 'AGGREGATE', 'MAX')
      if ttl_src >= 0 and ttl_dst ~= -1 then
        redis.call('PEXPIRE', dst, math.max(ttl_src, ttl_dst))
      end
      redis.call('DEL', src)
      n = n + 1
    end
  end
end
return {1, moved, n}
"""
)

# KEYS: 1 away marker, 2 deadlines   ARGV: 1 why, 2 marker ttl ms, 3.. the chat's place keys
# Reply: {1 newly marked / 0 already, turn clocks stopped}. The games stay as they are.
MARK_AWAY = (
    _PRELUDE
    + """
local zt = kind(KEYS[2])
if zt ~= 'none' and zt ~= 'zset' then return {-5, 2} end
local before = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'GET')
local stopped = 0
if zt == 'zset' then
  for i = 3, #ARGV do stopped = stopped + redis.call('ZREM', KEYS[2], ARGV[i]) end
end
if before then return {0, stopped} end
return {1, stopped}
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
