-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] how many of the next arguments
-- hold decision records (decisions.lua's readDecisions), then the run's field/value pairs.
-- compare-and-set (cas.lua) and the decisions, in one script: both or nothing.
-- Returns 1 when replaced and recorded, 0 (nothing changed) when the run is missing, at another version, or a
-- record's decisionId or idempotency key is taken.
local cur = redis.call('HMGET', KEYS[1], 'version', 'threadId', 'resourceId', 'deciders')
if cur[1] ~= ARGV[3] then return 0 end
local count = tonumber(ARGV[4])
local ds = readDecisions(4, count)
if decisionsTaken(ds) then return 0 end
unfileRun(ARGV[2], opt(cur[2]), opt(cur[3]), opt(cur[4]))
redis.call('HDEL', KEYS[1], 'threadId', 'resourceId', 'leaseOwner', 'leaseExpiresAt', 'expiresAt', 'summary', 'notifyAt',
  'notifyState', 'deciders')
local f, flat = fieldsFrom(5 + count)
redis.call('HSET', KEYS[1], unpack(flat))
fileRun(ARGV[2], f)
storeDecisions(ds)
return 1
