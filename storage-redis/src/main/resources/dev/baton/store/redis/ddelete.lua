-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] how many of the next arguments
-- hold decision records (decisions.lua's readDecisions).
-- delete (delete.lua) and the decisions, in one script: both or nothing; the records stay after the run.
-- Returns the deleted run's reservation nonce, or nil (nothing changed) when the run is missing, at another
-- version, or a record's decisionId or idempotency key is taken.
return deleteRunRecorded(KEYS[1], ARGV[2], ARGV[3], 4)
