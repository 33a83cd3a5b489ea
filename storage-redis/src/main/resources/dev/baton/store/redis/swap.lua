-- KEYS[1] the run-id lookup key; ARGV[1] the expected value, ARGV[2] the new value ("" deletes).
-- Returns 1 when the key held the expected value and was changed, else 0.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
