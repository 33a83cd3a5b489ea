-- KEYS[1] the agent's notification set (base .. 'notify'); ARGV[1] base, ARGV[2] now (epoch millis), ARGV[3] limit.
-- The runs whose notification is due (notifyAt at or before now), oldest first, ties by runId ascending
-- (sorted-set order for equal scores), at most limit of them, each as row() without payload: a range of the set.
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', NOTIFY, '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))) do
  out[#out + 1] = row(id, false)
end
return out
