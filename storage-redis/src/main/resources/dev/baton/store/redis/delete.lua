-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version.
-- Returns the deleted run's reservation nonce, or nil when missing or at another version.
local cur = redis.call('HMGET', KEYS[1], 'version', 'threadId', 'resourceId', 'rsv', 'deciders')
if cur[1] ~= ARGV[3] then return false end
unfileRun(ARGV[2], opt(cur[2]), opt(cur[3]), opt(cur[5]))
redis.call('DEL', KEYS[1])
return cur[4] or ''
