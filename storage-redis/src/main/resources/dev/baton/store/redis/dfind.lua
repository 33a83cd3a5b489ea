-- KEYS[1] the agent's decision index (for routing); ARGV[1] base, ARGV[2] the idempotency key.
-- Returns the record carrying the key as HGETALL gives it, or an empty list.
local id = redis.call('GET', idemKey(ARGV[2]))
if not id then return {} end
return redis.call('HGETALL', decKey(id))
