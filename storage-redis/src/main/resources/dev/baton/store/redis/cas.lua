-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4..] field/value pairs.
-- Returns 1 when replaced, 0 when the run is missing or at another version (nothing changed).
local cur = redis.call('HMGET', KEYS[1], 'version', 'threadId', 'resourceId', 'deciders')
if cur[1] ~= ARGV[3] then return 0 end
unfileRun(ARGV[2], opt(cur[2]), opt(cur[3]), opt(cur[4]))
redis.call('HDEL', KEYS[1], 'threadId', 'resourceId', 'leaseOwner', 'leaseExpiresAt', 'expiresAt', 'summary', 'notifyAt',
  'notifyState', 'deciders')
local f, flat = fieldsFrom(4)
redis.call('HSET', KEYS[1], unpack(flat))
fileRun(ARGV[2], f)
return 1
