-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3..] field/value pairs.
-- Returns {1} when stored, {0, rsv of the existing run} when the run already exists.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return { 0, redis.call('HGET', KEYS[1], 'rsv') or '' }
end
local f, flat = fieldsFrom(3)
redis.call('HSET', KEYS[1], unpack(flat))
fileRun(ARGV[2], f)
return { 1 }
