-- Standalone server, one bucket (RedisAccess#oneScript): insert with its run-id lookup reservation, in one round trip.
-- KEYS[1] run hash, KEYS[2] the run-id lookup key (another slot: not on a Cluster); ARGV[1] base, ARGV[2] runId,
-- ARGV[3] what follows the nonce in the lookup value (the agentId), ARGV[4] a fresh nonce, ARGV[5..] field/value
-- pairs (rsv = the nonce among them).
-- The steps of reserve.lua, insert.lua and RunLookup.restore, in one script: nothing can come between them, so this is
-- at least as strong as the two round trips (no delete can take the run between the insert and the restore, the race
-- restore's second step repairs).
-- Returns {1} when stored; {0} when the run exists (the lookup key points at it again, as restore leaves it);
-- {2} when the run id belongs to another agent's run (nothing changed).
if reserveLookup(KEYS[2], ARGV[3], ARGV[4]) == 0 then return { 2 } end
local r = insertRun(KEYS[1], ARGV[2], 5)
if r[1] == 1 then return r end
-- restore: from our reservation back to the run's own nonce; a run without one (its rsv is '') leaves the key
-- cleared, as restore's second step does when the run's rsv is not the value it restored
if r[2] == '' then swapLookup(KEYS[2], ARGV[4] .. ARGV[3], '') else swapLookup(KEYS[2], ARGV[4] .. ARGV[3], r[2] .. ARGV[3]) end
return { 0 }
