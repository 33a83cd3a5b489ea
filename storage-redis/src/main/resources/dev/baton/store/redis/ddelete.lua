-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] how many of the next arguments
-- hold decision records (decisions.lua's readDecisions).
-- delete (delete.lua) and the decisions, in one script: both or nothing; the records stay after the run.
-- Returns the deleted run's reservation nonce, or nil (nothing changed) when the run is missing, at another
-- version, or a record's decisionId or idempotency key is taken.
local cur = redis.call('HMGET', KEYS[1], 'version', 'threadId', 'resourceId', 'rsv', 'deciders')
if cur[1] ~= ARGV[3] then return false end
local ds = readDecisions(4, tonumber(ARGV[4]))
if decisionsTaken(ds) then return false end
unfileRun(ARGV[2], opt(cur[2]), opt(cur[3]), opt(cur[5]))
redis.call('DEL', KEYS[1])
storeDecisions(ds)
return cur[4] or ''
