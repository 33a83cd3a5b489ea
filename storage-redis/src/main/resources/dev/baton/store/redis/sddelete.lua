-- Standalone server, one bucket (RedisAccess#oneScript): delete with decision records (ddelete.lua) and the release
-- of the run-id lookup key, in one round trip.
-- KEYS[1] the run-id lookup key; ARGV[1] the key prefix, ARGV[2] runId, ARGV[3] expected version, ARGV[4] how many
-- of the next arguments hold decision records (decisions.lua's readDecisions), then the agentId of the records.
-- RunLookup.find, ddelete.lua and RunLookup.release in one script, as sdelete.lua.
-- Returns {1} when deleted and recorded; {0} when the run is missing, at another version, or a record's decisionId
-- or idempotency key is taken (nothing changed); {2} when the lookup value is in the bucketed form, {3, agentId}
-- when the run is another agent's than the records' (nothing changed in either: the caller decides).
local v, s, here = locateRun(KEYS[1], ARGV[1])
if not v then return { 0 } end
if not here then return { 2 } end
if s ~= ARGV[5 + tonumber(ARGV[4])] then return { 3, s } end
useDecisionBase()
local nonce = deleteRunRecorded(runKey(ARGV[2]), ARGV[2], ARGV[3], 4)
if not nonce then return { 0 } end
swapLookup(KEYS[1], nonce .. s, '')
return { 1 }
