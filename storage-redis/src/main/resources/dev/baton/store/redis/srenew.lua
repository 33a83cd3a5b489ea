-- Standalone server, one bucket (RedisAccess#oneScript): lease renewal in one round trip.
-- KEYS[1] the run-id lookup key; ARGV[1] the key prefix, ARGV[2] runId, ARGV[3..6] as renew.lua's.
-- RunLookup.find and renew.lua in one script (the run's keys are in another slot: not on a Cluster).
-- Returns renew.lua's 1 or 0 (also when the lookup key names nothing), 2 when the lookup value is in the bucketed
-- form (nothing changed).
local v, _, here = locateRun(KEYS[1], ARGV[1])
if not v then return 0 end
if not here then return 2 end
return renewRun(runKey(ARGV[2]), ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
