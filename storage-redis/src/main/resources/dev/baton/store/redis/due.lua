-- KEYS[1] the agent's deadline set (base .. 'due'); ARGV[1] base, ARGV[2] now (epoch millis), ARGV[3] limit.
-- The runs whose deadline is at or before now, soonest first, ties by runId ascending (sorted-set order for
-- equal scores), skipping runs under a live lease (RESUMING with leaseExpiresAt > now), at most limit of them,
-- each as row() without payload. A range of the deadline set: it reads only due runs, plus the few it skips.
local now, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local out, offset = {}, 0
while #out < limit do
  local want = limit - #out
  local ids = redis.call('ZRANGEBYSCORE', DUE, '-inf', ARGV[2], 'LIMIT', offset, want)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    local r = row(id, false)
    if not (r[3] == 'RESUMING' and r[10] and tonumber(r[10]) > now) then out[#out + 1] = r end
  end
  offset = offset + #ids
  if #ids < want then break end
end
return out
