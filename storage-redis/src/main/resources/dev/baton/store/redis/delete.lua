-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version.
-- Returns the deleted run's reservation nonce, or nil when missing or at another version.
return deleteRun(KEYS[1], ARGV[2], ARGV[3])
