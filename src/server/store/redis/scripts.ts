/**
 * The Redis store's steps that must be atomic, as Lua scripts: Redis runs each one whole with
 * nothing in between, which is what makes a claim exclusive between instances and an append's
 * id, trim and wake-up one step.
 */

/**
 * KEYS[1] the stream. ARGV: value text, events kept (approximately), stream ttl ms, channel.
 * Ids count 1, 2, 3… within the stream (entry id `n-0`), so `Last-Event-ID` is a plain integer
 * on every instance; the subscribers are woken with `id:value`.
 */
export const APPEND = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
local id = 1
if last then id = tonumber(string.match(last[1], '^(%d+)')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], id .. '-0', 'v', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], id .. ':' .. ARGV[1])
return id
`;

/**
 * KEYS: the queue's sorted set (score: when the job may next be claimed: its due time, or the
 * end of its lease), its values, due times and attempts (hashes by job key).
 * ARGV: value text, due time, job key.
 * Replacing keeps the attempt count and ends any lease (the score goes back to the due time).
 */
export const SCHEDULE = `
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[2])
redis.call('HSETNX', KEYS[4], ARGV[3], 0)
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return 1
`;

/**
 * KEYS as SCHEDULE. ARGV: now, limit, end of the lease.
 * Returns key, value, due time, attempts before this claim, for each job claimed.
 */
export const CLAIM = `
local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local out = {}
for _, key in ipairs(keys) do
  local attempts = redis.call('HINCRBY', KEYS[4], key, 1) - 1
  redis.call('ZADD', KEYS[1], ARGV[3], key)
  out[#out + 1] = key
  out[#out + 1] = redis.call('HGET', KEYS[2], key) or ''
  out[#out + 1] = redis.call('HGET', KEYS[3], key) or '0'
  out[#out + 1] = tostring(attempts)
end
return out
`;

/** KEYS[1] the lease. ARGV: owner, ttl ms. Taken when free or already ours (then renewed). */
export const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

/** KEYS[1] the lease. ARGV: owner. Compare and delete: never frees another owner's lease. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * One `commit`, whole: Redis runs a script with nothing in between, so no other client sees half
 * of it, and a second instance's competing `add` runs wholly before or after it.
 * ARGV[1] events kept per stream (approximately), ARGV[2] stream ttl ms; then each write's op
 * and fields in order, taking its keys from KEYS in order:
 * - set, add: KEYS value; ARGV op, value text, ttl ms
 * - delete: KEYS value; ARGV op
 * - expect: KEYS value; ARGV op, value text ('' expects it absent)
 * - take: KEYS window; ARGV op, id, limit, at, window ms, whenFull
 * - give: KEYS window; ARGV op, id
 * - append: KEYS stream; ARGV op, value text, channel
 * - schedule: KEYS the queue's four (as SCHEDULE); ARGV op, value text, due time, job key
 * - finish: KEYS the queue's four; ARGV op, job key
 * - index: KEYS the list's sorted set; ARGV op, score, key
 * A script is not rolled back when a command in it fails, so every guard (an add, an expect, a
 * take of a full window) is checked before the first write, following the writes before it (a
 * set makes its key hold its value, a delete absent, a take or give its new window): one that
 * fails returns 0 with nothing written. The wake-ups of the appends are published last, once
 * every write is in. A window is JSON text, a list of [end, id] (store-window.ts).
 */
export const COMMIT = `
local function window(text, at)
  local entries = {}
  if not text or text == '' then return entries end
  local ok, list = pcall(cjson.decode, text)
  if not ok or type(list) ~= 'table' then return entries end
  for _, entry in ipairs(list) do
    if type(entry) == 'table' and type(entry[1]) == 'number' and type(entry[2]) == 'string'
      and (at == nil or entry[1] > at) then
      entries[#entries + 1] = entry
    end
  end
  return entries
end
local function windowText(entries)
  local parts = {}
  for i, entry in ipairs(entries) do
    parts[i] = '[' .. string.format('%.17g', entry[1]) .. ',' .. cjson.encode(entry[2]) .. ']'
  end
  return '[' .. table.concat(parts, ',') .. ']'
end
-- held[key]: the text a key holds as the writes so far leave it (false: absent).
local held = {}
local function holding(key)
  local text = held[key]
  if text == nil then text = redis.call('GET', key) or false end
  return text
end
-- planned[a]: the window a take or give at ARGV[a] writes ('' deletes it; nil writes nothing).
local planned = {}
local k, a = 1, 3
while a <= #ARGV do
  local op = ARGV[a]
  if op == 'set' then
    held[KEYS[k]] = ARGV[a + 1]
    k, a = k + 1, a + 3
  elseif op == 'add' then
    if holding(KEYS[k]) then return 0 end
    held[KEYS[k]] = ARGV[a + 1]
    k, a = k + 1, a + 3
  elseif op == 'delete' then
    held[KEYS[k]] = false
    k, a = k + 1, a + 1
  elseif op == 'expect' then
    if (holding(KEYS[k]) or '') ~= ARGV[a + 1] then return 0 end
    k, a = k + 1, a + 2
  elseif op == 'take' then
    local at, limit = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 2])
    local entries = window(holding(KEYS[k]) or nil, at)
    local taken = false
    for _, entry in ipairs(entries) do if entry[2] == ARGV[a + 1] then taken = true end end
    if not taken then
      if #entries >= limit then
        if ARGV[a + 5] == 'fail' then return 0 end
      else
        entries[#entries + 1] = { at + tonumber(ARGV[a + 4]), ARGV[a + 1] }
        planned[a] = windowText(entries)
        held[KEYS[k]] = planned[a]
      end
    end
    k, a = k + 1, a + 6
  elseif op == 'give' then
    local entries = window(holding(KEYS[k]) or nil, nil)
    local kept = {}
    for _, entry in ipairs(entries) do
      if entry[2] ~= ARGV[a + 1] then kept[#kept + 1] = entry end
    end
    if #kept < #entries then
      if #kept == 0 then planned[a] = '' else planned[a] = windowText(kept) end
      held[KEYS[k]] = planned[a] ~= '' and planned[a]
    end
    k, a = k + 1, a + 2
  elseif op == 'append' or op == 'index' then
    k, a = k + 1, a + 3
  elseif op == 'schedule' then
    k, a = k + 4, a + 4
  elseif op == 'finish' then
    k, a = k + 4, a + 2
  else
    return redis.error_reply('paydrop commit: unknown op ' .. tostring(op))
  end
end
local wakeups = {}
k, a = 1, 3
while a <= #ARGV do
  local op = ARGV[a]
  if op == 'set' or op == 'add' then
    redis.call('SET', KEYS[k], ARGV[a + 1], 'PX', ARGV[a + 2])
    k, a = k + 1, a + 3
  elseif op == 'delete' then
    redis.call('DEL', KEYS[k])
    k, a = k + 1, a + 1
  elseif op == 'expect' then
    k, a = k + 1, a + 2
  elseif op == 'take' then
    if planned[a] then redis.call('SET', KEYS[k], planned[a], 'PX', ARGV[a + 4]) end
    k, a = k + 1, a + 6
  elseif op == 'give' then
    if planned[a] == '' then
      redis.call('DEL', KEYS[k])
    elseif planned[a] then
      local ttl = redis.call('PTTL', KEYS[k])
      if ttl > 0 then
        redis.call('SET', KEYS[k], planned[a], 'PX', ttl)
      else
        redis.call('SET', KEYS[k], planned[a])
      end
    end
    k, a = k + 1, a + 2
  elseif op == 'append' then
    local last = redis.call('XREVRANGE', KEYS[k], '+', '-', 'COUNT', 1)[1]
    local id = 1
    if last then id = tonumber(string.match(last[1], '^(%d+)')) + 1 end
    redis.call('XADD', KEYS[k], 'MAXLEN', '~', ARGV[1], id .. '-0', 'v', ARGV[a + 1])
    redis.call('PEXPIRE', KEYS[k], ARGV[2])
    wakeups[#wakeups + 1] = ARGV[a + 2]
    wakeups[#wakeups + 1] = id .. ':' .. ARGV[a + 1]
    k, a = k + 1, a + 3
  elseif op == 'schedule' then
    redis.call('HSET', KEYS[k + 1], ARGV[a + 3], ARGV[a + 1])
    redis.call('HSET', KEYS[k + 2], ARGV[a + 3], ARGV[a + 2])
    redis.call('HSETNX', KEYS[k + 3], ARGV[a + 3], 0)
    redis.call('ZADD', KEYS[k], ARGV[a + 2], ARGV[a + 3])
    k, a = k + 4, a + 4
  elseif op == 'finish' then
    redis.call('ZREM', KEYS[k], ARGV[a + 1])
    redis.call('HDEL', KEYS[k + 1], ARGV[a + 1])
    redis.call('HDEL', KEYS[k + 2], ARGV[a + 1])
    redis.call('HDEL', KEYS[k + 3], ARGV[a + 1])
    k, a = k + 4, a + 2
  elseif op == 'index' then
    redis.call('ZADD', KEYS[k], ARGV[a + 1], ARGV[a + 2])
    k, a = k + 1, a + 3
  end
end
for i = 1, #wakeups, 2 do redis.call('PUBLISH', wakeups[i], wakeups[i + 1]) end
return 1
`;

/**
 * KEYS[1] the list's sorted set (members are store keys, scores their scores). ARGV: limit, the
 * prefix of value keys, the cursor's score and key (empty: from the top).
 * Returns key, score, value for up to `limit` entries, highest score first and, within a score,
 * key descending (Redis orders equal scores by the members' bytes). Entries whose value is gone
 * are skipped and removed from the list. The value keys are built here, not passed as KEYS: the
 * store does not support Redis Cluster (see redis-store.ts).
 * The cursor's place is its rank: where the cursor's entry is when it is still there at its
 * score, else where it would be (put there for the moment and taken out again, within the
 * script, so nobody sees it), which Redis's own order decides rather than Lua's string order.
 */
export const PAGE = `
local start = 0
if ARGV[3] ~= '' then
  local old = redis.call('ZSCORE', KEYS[1], ARGV[4])
  if old and tonumber(old) == tonumber(ARGV[3]) then
    start = redis.call('ZREVRANK', KEYS[1], ARGV[4]) + 1
  else
    redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
    start = redis.call('ZREVRANK', KEYS[1], ARGV[4])
    if old then redis.call('ZADD', KEYS[1], old, ARGV[4]) else redis.call('ZREM', KEYS[1], ARGV[4]) end
    -- Taken out again, an entry above the cursor's place puts back the one it displaced.
    if old and tonumber(old) > tonumber(ARGV[3]) then start = start + 1 end
  end
end
local limit = tonumber(ARGV[1])
local out = {}
while #out < limit * 3 do
  local batch = redis.call('ZREVRANGE', KEYS[1], start, start + limit - 1, 'WITHSCORES')
  if #batch == 0 then break end
  local gone = 0
  for i = 1, #batch, 2 do
    local value = redis.call('GET', ARGV[2] .. batch[i])
    if not value then
      redis.call('ZREM', KEYS[1], batch[i])
      gone = gone + 1
    elseif #out < limit * 3 then
      out[#out + 1] = batch[i]
      out[#out + 1] = batch[i + 1]
      out[#out + 1] = value
    end
  end
  start = start + #batch / 2 - gone
end
return out
`;
