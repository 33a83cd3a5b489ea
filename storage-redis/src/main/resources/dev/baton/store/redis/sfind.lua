-- Standalone server, one bucket (RedisAccess#oneScript): find in one round trip.
-- KEYS[1] the run-id lookup key; ARGV[1] the key prefix, ARGV[2] runId.
-- The GET of RunLookup.find and the HGETALL of the run's hash (in another slot: not on a Cluster), in one script.
-- Returns {1, the hash as HGETALL gives it (empty when gone)}; {0} when the lookup key names nothing;
-- {2} when its value is in the bucketed form (the caller reads it in two round trips).
local v, _, here = locateRun(KEYS[1], ARGV[1])
if not v then return { 0 } end
if not here then return { 2 } end
return { 1, redis.call('HGETALL', runKey(ARGV[2])) }
