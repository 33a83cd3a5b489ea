-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] expected notifyAt (epoch millis),
-- ARGV[5] new notifyAt ('' for none), ARGV[6] '1' if a new notifyState follows in ARGV[7], else '0' (none).
-- Moves the run's notification: if the run is at the expected version and its notifyAt is the expected one,
-- sets notifyAt (and its place in the notification set) and notifyState; the version and every other field stay.
-- Returns 1 when moved, 0 (nothing changed) when the run is missing, at another version, or its notifyAt differs.
local cur = redis.call('HMGET', KEYS[1], 'version', 'notifyAt')
if cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
if ARGV[5] == '' then
  redis.call('HDEL', KEYS[1], 'notifyAt')
  redis.call('ZREM', NOTIFY, ARGV[2])
else
  redis.call('HSET', KEYS[1], 'notifyAt', ARGV[5])
  redis.call('ZADD', NOTIFY, ARGV[5], ARGV[2])
end
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'notifyState', ARGV[7]) else redis.call('HDEL', KEYS[1], 'notifyState') end
return 1
