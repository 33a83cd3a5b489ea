-- Memory: appends messages to a thread. KEYS as mcreate.lua; ARGV[1] rsv, ARGV[2] threadId, ARGV[3] at
-- (epoch millis), ARGV[4..] pairs of (run message id "runIndex:runId", packed message).
-- A message whose run message id the thread has is skipped (a retry after a crash duplicates nothing);
-- each other one takes the next seq from the thread's counter: O(1) per message, however long the thread.
-- The whole call is one script, so concurrent appends interleave whole and nothing is half-appended.
-- Returns 1, or 0 (nothing written) when there is no such thread here.
if redis.call('HGET', KEYS[1], 'rsv') ~= ARGV[1] then return 0 end
for i = 4, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[3], ARGV[i]) == 0 then
    local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
    redis.call('HSET', KEYS[2], seq, ARGV[i + 1])
    redis.call('HSET', KEYS[3], ARGV[i], seq)
  end
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[3])
if redis.call('HEXISTS', KEYS[1], 'resourceId') == 1 then redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2]) end
return 1
