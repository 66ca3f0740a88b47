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
