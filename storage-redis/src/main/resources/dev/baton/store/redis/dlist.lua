-- KEYS[1] the agent's decision index (for routing); ARGV[1] base, ARGV[2]/[3] has-run flag / runId,
-- ARGV[4]/[5] thread, ARGV[6]/[7] resource, ARGV[8]/[9] actor, ARGV[10] from (inclusive epoch millis, or '-inf'),
-- ARGV[11] the first epoch milli past the query's inclusive 'to' (to + 1, exclusive here), or '+inf', ARGV[12] has-cursor flag, ARGV[13]/[14] the cursor's
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
-- ranks in listing order (decidedAt descending, then decisionId descending), see pageRanks: skip the records at
-- or after ARGV[11] (the millisecond past the inclusive "to"), and those up to the cursor
local above = nil
if max ~= '+inf' then above = max end
local cursorId = nil
if ARGV[12] == '1' then cursorId = ARGV[14] end
local first, last = pageRanks(key, above, min, ARGV[13], cursorId)

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
