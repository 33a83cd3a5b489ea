-- Layout migration (RedisLayoutMigration), after common.lua and decisions.lua. KEYS[1] the record's hash in the
-- source bucket; ARGV[1] the source bucket's base, ARGV[2] the decisionId.
-- Removes the record from the bucket: its hash, every index, and the bucket's idempotency key if it names the record.
-- Returns 1.
local id = ARGV[2]
local h = redis.call('HMGET', decKey(id), 'runId', 'actor', 'threadId', 'resourceId', 'idempotencyKey')
local f = { runId = h[1] or '', actor = h[2] or '', threadId = opt(h[3]), resourceId = opt(h[4]) }
for _, k in ipairs(decIndexes(f)) do redis.call('ZREM', k, id) end
redis.call('ZREM', DEC_ALL, id)
local key = opt(h[5])
if key and redis.call('GET', idemKey(key)) == id then redis.call('DEL', idemKey(key)) end
redis.call('DEL', decKey(id))
return 1
