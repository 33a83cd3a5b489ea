-- Layout migration (RedisLayoutMigration), after common.lua and decisions.lua. KEYS[1] the record's hash in the
-- target bucket; ARGV[1] the target bucket's base, ARGV[2..] the record's field/value pairs as its hash holds them.
-- Stores the record and files it in the bucket's decision indexes (and its idempotency key), unless it is there.
-- Returns 1 when stored, 0 when it already was.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local f, flat = fieldsFrom(2)
storeDecisions({ { f = f, flat = flat } })
return 1
