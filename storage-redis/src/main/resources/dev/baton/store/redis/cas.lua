-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4..] field/value pairs.
-- Returns 1 when replaced, 0 when the run is missing or at another version (nothing changed).
local cur = redis.call('HMGET', KEYS[1], 'version', unpack(FILED))
if cur[1] ~= ARGV[3] then return 0 end
local f, flat = fieldsFrom(4)
refileRun(ARGV[2], filedFrom(cur, 2), f)
dropAbsent(KEYS[1], f)
redis.call('HSET', KEYS[1], unpack(flat))
return 1
