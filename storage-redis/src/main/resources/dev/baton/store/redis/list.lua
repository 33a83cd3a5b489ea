-- KEYS[1] the agent's "all" index (for routing); ARGV[1] base, ARGV[2] now (epoch millis),
-- ARGV[3] status ("SUSPENDED", "RESUMING" or "" for both), ARGV[4]/[5] has-thread flag / thread,
-- ARGV[6]/[7] has-resource flag / resource, ARGV[8]/[9] min/max createdAt score,
-- ARGV[10] offset, ARGV[11] limit (-1: all, 0: count only), ARGV[12] with payloads ("1"/"0"),
-- ARGV[13] has-cursor flag, ARGV[14]/[15] the cursor's createdAt score and runId, ARGV[16] "1" for the page's
-- runIds and scores instead of rows (a bucketed listing's first pass at an offset, see RedisRunListing),
-- ARGV[17] the number n of deciders of the deciders filter (-1: no filter), ARGV[18..17+2n] each decider's
-- granting and excluding label.
-- Returns {total, row1, row2, ...}, each row as row() gives it: page, total and the page's fields in one
-- round trip, and the payloads left unread when the caller needs none.
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

-- The deciders filter: the runs stored SUSPENDED that hold some decider's granting label and not its excluding
-- one (per decider a ZDIFFSTORE of the two label sets, unioned), within the index the other filters chose
-- (ZINTERSTORE, scores kept: createdAt). A temporary sorted set in the agent's slot, deleted before the script
-- returns; its cost grows with the runs that hold the granting labels, not with the agent's runs.
local tmp = nil
local deciders = tonumber(ARGV[17] or '-1')
if deciders >= 0 then
  tmp = base .. 'tmp:deciders'
  local one = base .. 'tmp:decider'
  redis.call('DEL', tmp)
  for k = 0, deciders - 1 do
    redis.call('ZDIFFSTORE', one, 2, labelKey(ARGV[18 + 2 * k]), labelKey(ARGV[19 + 2 * k]))
    redis.call('ZUNIONSTORE', tmp, 2, tmp, one, 'AGGREGATE', 'MAX')
  end
  redis.call('DEL', one)
  redis.call('ZINTERSTORE', tmp, 2, tmp, key, 'WEIGHTS', 1, 0)
  key = tmp
end
local function done(o)
  if tmp then redis.call('DEL', tmp) end
  return o
end

local out = { redis.call('ZCOUNT', key, min, max) }
local limit = tonumber(ARGV[11])
if limit == 0 or out[1] == 0 then return done(out) end

-- The page as a rank range in listing order (createdAt descending, then runId descending), see pageRanks;
-- the offset counts from the cursor.
local above = nil
if max ~= '+inf' then above = '(' .. max end
local cursorId = nil
if ARGV[13] == '1' then cursorId = ARGV[15] end
local first, last = pageRanks(key, above, min, ARGV[14], cursorId)
first = first + tonumber(ARGV[10])
if limit > 0 and first + limit - 1 < last then last = first + limit - 1 end
if first > last then return done(out) end

if ARGV[16] == '1' then
  for _, v in ipairs(redis.call('ZREVRANGE', key, first, last, 'WITHSCORES')) do out[#out + 1] = v end
  return done(out)
end
local withPayload = ARGV[12] == '1'
for _, id in ipairs(redis.call('ZREVRANGE', key, first, last)) do out[#out + 1] = row(id, withPayload) end
return done(out)
