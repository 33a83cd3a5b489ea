-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] lease owner,
-- ARGV[5] new leaseExpiresAt (epoch millis), ARGV[6] the next version (expected + 1).
-- Renews the lease of a RESUMING run held by ARGV[4] at version ARGV[3]: sets leaseExpiresAt and the
-- version, and files the run as a compare-and-set writing that snapshot would (cas.lua: unfile, then
-- fileRun): in the "res" family and the held-lease set, scored by the new expiry, out of "sus" and the
-- lapsed-lease set where a listing may have moved it. The "all" family keeps it (its score, createdAt,
-- does not change). The payload is neither read nor written.
-- Returns 1 when renewed, 0 (nothing changed) when the run is missing, at another version, not
-- RESUMING, or held by someone else.
local cur = redis.call('HMGET', KEYS[1], 'version', 'status', 'leaseOwner', 'threadId', 'resourceId', 'createdAt')
if cur[1] ~= ARGV[3] or cur[2] ~= 'RESUMING' or cur[3] ~= ARGV[4] then return 0 end
local id, thread, res = ARGV[2], opt(cur[4]), opt(cur[5])
removeFrom('sus', thread, res, id)
redis.call('ZREM', LAPSED, id)
addTo('res', thread, res, cur[6], id)
redis.call('ZADD', HELD, ARGV[5], id)
redis.call('HSET', KEYS[1], 'leaseExpiresAt', ARGV[5], 'version', ARGV[6])
return 1
