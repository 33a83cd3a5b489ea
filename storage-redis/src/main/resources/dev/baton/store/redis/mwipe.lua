-- Memory: deletes a thread and its messages, if it is the incarnation ARGV[1] names. KEYS as mcreate.lua;
-- ARGV[1] rsv, ARGV[2] threadId. Returns 1 when deleted, 0 when there is no such thread here.
if redis.call('HGET', KEYS[1], 'rsv') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
