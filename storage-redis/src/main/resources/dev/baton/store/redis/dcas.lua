-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] how many of the next arguments
-- hold decision records (decisions.lua's readDecisions), then the run's field/value pairs.
-- compare-and-set (cas.lua) and the decisions, in one script: both or nothing.
-- Returns 1 when replaced and recorded, 0 (nothing changed) when the run is missing, at another version, or a
-- record's decisionId or idempotency key is taken.
local cur = redis.call('HMGET', KEYS[1], 'version', unpack(FILED))
if cur[1] ~= ARGV[3] then return 0 end
local count = tonumber(ARGV[4])
local ds = readDecisions(4, count)
if decisionsTaken(ds) then return 0 end
local f, flat = fieldsFrom(5 + count)
refileRun(ARGV[2], filedFrom(cur, 2), f)
dropAbsent(KEYS[1], f)
redis.call('HSET', KEYS[1], unpack(flat))
storeDecisions(ds)
return 1
