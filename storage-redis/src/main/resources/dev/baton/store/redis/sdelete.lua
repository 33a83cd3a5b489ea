-- Standalone server, one bucket (RedisAccess#oneScript): delete with the release of the run-id lookup key, in one
-- round trip.
-- KEYS[1] the run-id lookup key; ARGV[1] the key prefix, ARGV[2] runId, ARGV[3] expected version.
-- RunLookup.find, delete.lua and RunLookup.release (swap.lua) in one script (the run's keys are in another slot: not on
-- a Cluster): at least as strong as the three round trips, since no insert can re-point the key between them; the
-- key is freed only if it still names the deleted run's reservation, as release frees it.
-- Returns 1 when deleted, 0 when the run is missing or at another version (nothing changed), 2 when the lookup
-- value is in the bucketed form (nothing changed: the caller deletes in several round trips).
local v, s, here = locateRun(KEYS[1], ARGV[1])
if not v then return 0 end
if not here then return 2 end
local nonce = deleteRun(runKey(ARGV[2]), ARGV[2], ARGV[3])
if not nonce then return 0 end
swapLookup(KEYS[1], nonce .. s, '')
return 1
