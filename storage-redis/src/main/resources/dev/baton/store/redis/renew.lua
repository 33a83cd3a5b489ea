-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] lease owner,
-- ARGV[5] new leaseExpiresAt (epoch millis), ARGV[6] the next version (expected + 1).
-- Renews the lease (common.lua's renewRun). Returns 1 when renewed, 0 (nothing changed) when the run is missing,
-- at another version, not RESUMING, or held by someone else.
return renewRun(KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
