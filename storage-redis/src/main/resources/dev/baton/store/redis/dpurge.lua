-- KEYS[1] the agent's decision index (for routing); ARGV[1] base, ARGV[2] olderThan (epoch millis), ARGV[3] limit.
-- Deletes at most limit records decided before olderThan, oldest first (a range of the agent's index), from
-- their hash and every index; an idempotency key goes with its record. Returns how many were deleted, then
-- decisionId, idempotency key of each deleted record that had a key (the store frees a bucketed layout's
-- reservation of it).
local ids = redis.call('ZRANGEBYSCORE', DEC_ALL, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local out = { #ids }
for _, id in ipairs(ids) do
  local h = redis.call('HMGET', decKey(id), 'runId', 'actor', 'threadId', 'resourceId', 'idempotencyKey')
  local f = { runId = h[1] or '', actor = h[2] or '', threadId = opt(h[3]), resourceId = opt(h[4]) }
  for _, k in ipairs(decIndexes(f)) do redis.call('ZREM', k, id) end
  redis.call('ZREM', DEC_ALL, id)
  local key = opt(h[5])
  if key then
    if redis.call('GET', idemKey(key)) == id then redis.call('DEL', idemKey(key)) end
    out[#out + 1] = id
    out[#out + 1] = key
  end
  redis.call('DEL', decKey(id))
end
return out
