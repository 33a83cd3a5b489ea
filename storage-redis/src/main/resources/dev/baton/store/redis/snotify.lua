-- Standalone server, one bucket (RedisAccess#oneScript): notification update in one round trip.
-- KEYS[1] the run-id lookup key; ARGV[1] the key prefix, ARGV[2] runId, ARGV[3..7] as notify.lua's.
-- RunLookup.find and notify.lua in one script (the run's keys are in another slot: not on a Cluster).
-- Returns notify.lua's 1 or 0 (also when the lookup key names nothing), 2 when the lookup value is in the bucketed
-- form (nothing changed).
local v, _, here = locateRun(KEYS[1], ARGV[1])
if not v then return 0 end
if not here then return 2 end
local state = nil
if ARGV[6] == '1' then state = ARGV[7] end
return notifyRun(runKey(ARGV[2]), ARGV[2], ARGV[3], ARGV[4], ARGV[5], state)
