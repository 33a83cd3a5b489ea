-- KEYS[1] the agent's decision index (for routing); ARGV[1] base, ARGV[2]/[3] has-run flag / runId,
-- ARGV[4]/[5] thread, ARGV[6]/[7] resource, ARGV[8]/[9] actor, ARGV[10] from (inclusive epoch millis, or '-inf'),
-- ARGV[11] to (exclusive epoch millis, or '+inf'), ARGV[12] has-cursor flag, ARGV[13]/[14] the cursor's
-- decidedAt and decisionId, ARGV[15] how many records to return at most (the page size plus one).
-- Returns the records as HGETALL gives them, newest first (decidedAt, then decisionId, both descending).
-- One index serves the query, the most selective one a condition names (run, thread, resource, actor, else the
-- agent's): the page is a rank range of it. Conditions beyond the first are checked on the records of that range,
-- in order, until the page is full.
local want = tonumber(ARGV[15])
local filters = {}
local key
local function cond(flag, value, field, prefix)
  if ARGV[flag] ~= '1' then return end
  if key then filters[#filters + 1] = { field, ARGV[value] } else key = DEC .. prefix .. hex(ARGV[value]) end
end
cond(2, 3, 'runId', 'run:')
cond(4, 5, 'threadId', 't:')
cond(6, 7, 'resourceId', 'r:')
cond(8, 9, 'actor', 'u:')
if not key then key = DEC_ALL end

local min, max = ARGV[10], ARGV[11]
-- ranks in listing order (ZREVRANGE): skip the records at or after "to", and those up to the cursor
local first = 0
if max ~= '+inf' then first = redis.call('ZCOUNT', key, max, '+inf') end
if ARGV[12] == '1' then
  local score, id = ARGV[13], ARGV[14]
  local at = redis.call('ZSCORE', key, id)
  local after
  if at and tonumber(at) == tonumber(score) then
    after = redis.call('ZREVRANK', key, id) + 1
  else
    -- the cursor's record is gone (purged) or not in this index: its place is where it would be; filed there and
    -- put back inside this script, so no other client ever sees it
    redis.call('ZADD', key, score, id)
    after = redis.call('ZREVRANK', key, id)
    if at then redis.call('ZADD', key, at, id) else redis.call('ZREM', key, id) end
  end
  if after > first then first = after end
end
local last = redis.call('ZCARD', key) - 1
if min ~= '-inf' then last = redis.call('ZCOUNT', key, min, '+inf') - 1 end

local out = {}
local batch = want
if #filters > 0 then batch = 200 end
while first <= last and #out < want do
  local to = first + batch - 1
  if to > last then to = last end
  for _, id in ipairs(redis.call('ZREVRANGE', key, first, to)) do
    local hk = decKey(id)
    local ok = true
    for _, fl in ipairs(filters) do
      if redis.call('HGET', hk, fl[1]) ~= fl[2] then ok = false break end
    end
    if ok then
      out[#out + 1] = redis.call('HGETALL', hk)
      if #out >= want then break end
    end
  end
  first = to + 1
end
return out
