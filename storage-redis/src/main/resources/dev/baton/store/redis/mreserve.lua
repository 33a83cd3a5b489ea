-- Memory: reserves a thread id. KEYS[1] the thread-id lookup key; ARGV[1] nonce .. owner.
-- Returns nil when reserved, else the value that holds the id.
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1])
return false
