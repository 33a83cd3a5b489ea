-- Memory: replaces a thread's title, metadata and update time. KEYS[1] thread hash, KEYS[2] the owner's thread
-- listing; ARGV[1] rsv, ARGV[2] threadId, ARGV[3] updatedAt, ARGV[4] has-title flag, ARGV[5] title,
-- ARGV[6] metadata JSON. Returns 1 when updated, 0 when there is no such thread here.
if redis.call('HGET', KEYS[1], 'rsv') ~= ARGV[1] then return 0 end
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], 'title', ARGV[5])
else
  redis.call('HDEL', KEYS[1], 'title')
end
redis.call('HSET', KEYS[1], 'metadata', ARGV[6], 'updatedAt', ARGV[3])
if redis.call('HEXISTS', KEYS[1], 'resourceId') == 1 then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2]) end
return 1
