-- KEYS[1] the agent's "all" index (for routing); ARGV[1] base, ARGV[2] now (epoch millis),
-- ARGV[3] status ("SUSPENDED", "RESUMING" or "" for both), ARGV[4]/[5] has-thread flag / thread,
-- ARGV[6]/[7] has-resource flag / resource, ARGV[8]/[9] min/max createdAt score,
-- ARGV[10] offset, ARGV[11] limit (-1: all, 0: count only).
-- Returns {total, hash1, hash2, ...} with each hash as HGETALL's flat field/value list.
local now = ARGV[2]

-- Lazy reaper: a RESUMING run whose lease expired (leaseExpiresAt <= now) counts as SUSPENDED,
-- so it moves from the "res" to the "sus" family. The stored run itself is not changed.
local function refile(id, from, to, fromLeases, toLeases)
  local f = redis.call('HMGET', runKey(id), 'threadId', 'resourceId', 'createdAt', 'leaseExpiresAt')
  local thread, res = opt(f[1]), opt(f[2])
  removeFrom(from, thread, res, id)
  addTo(to, thread, res, f[3], id)
  redis.call('ZREM', fromLeases, id)
  redis.call('ZADD', toLeases, f[4], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', HELD, '-inf', now)) do
  refile(id, 'res', 'sus', HELD, LAPSED)
end
-- The effective status is a function of the caller's "now": a listing with an earlier "now"
-- than a previous one files still-live leases back as RESUMING (normally this finds nothing).
for _, id in ipairs(redis.call('ZRANGEBYSCORE', LAPSED, '(' .. now, '+inf')) do
  refile(id, 'sus', 'res', LAPSED, HELD)
end

local fam = 'all'
if ARGV[3] == 'SUSPENDED' then fam = 'sus' elseif ARGV[3] == 'RESUMING' then fam = 'res' end
local thread, res = nil, nil
if ARGV[4] == '1' then thread = ARGV[5] end
if ARGV[6] == '1' then res = ARGV[7] end
local key = indexKey(fam, thread, res)
local min, max = ARGV[8], ARGV[9]

local out = { redis.call('ZCOUNT', key, min, max) }
local limit = tonumber(ARGV[11])
if limit ~= 0 then
  local ids
  if limit < 0 then
    ids = redis.call('ZREVRANGEBYSCORE', key, max, min)
  else
    ids = redis.call('ZREVRANGEBYSCORE', key, max, min, 'LIMIT', ARGV[10], ARGV[11])
  end
  for _, id in ipairs(ids) do out[#out + 1] = redis.call('HGETALL', runKey(id)) end
end
return out
