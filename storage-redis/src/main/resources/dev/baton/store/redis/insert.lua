-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3..] field/value pairs.
-- Returns {1} when stored, {0, rsv of the existing run} when the run already exists.
return insertRun(KEYS[1], ARGV[2], 3)
