-- Memory: creates a thread. KEYS[1] thread hash, KEYS[2] its messages, KEYS[3] its run-message ids, KEYS[4] the
-- owner's thread listing; ARGV[1] the creator's nonce (rsv), ARGV[2] threadId, ARGV[3] listed ("1": the thread has
-- a resource), ARGV[4] updatedAt (epoch millis), ARGV[5..] field/value pairs.
-- Returns {1} when created, {0, rsv of the thread there} when this slot already has a thread of this id.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return { 0, redis.call('HGET', KEYS[1], 'rsv') or '' }
end
redis.call('DEL', KEYS[2], KEYS[3])
local flat = {}
for i = 5, #ARGV do flat[#flat + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], 'rsv', ARGV[1], 'seq', '0', unpack(flat))
if ARGV[3] == '1' then redis.call('ZADD', KEYS[4], ARGV[4], ARGV[2]) end
return { 1 }
