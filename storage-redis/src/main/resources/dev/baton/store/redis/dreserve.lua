-- KEYS[1] an idempotency-key reservation (bucketed layout, see IdempotencyReservations); ARGV[1] "k/N:decisionId",
-- ARGV[2] the value to replace ('' when the key must be free).
-- The value is "reservedAtMillis:k/N:decisionId", reservedAtMillis by the server's clock.
-- Returns {1, value} when reserved for ARGV[1]; {2, value} when it already names the same decision (a retry);
-- {0, value, age in millis} when it names another decision (and is not ARGV[2]): nothing changed.
local v = redis.call('GET', KEYS[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if v and v ~= ARGV[2] then
  local at = string.find(v, ':', 1, true)
  if at and string.sub(v, at + 1) == ARGV[1] then return { 2, v } end
  local since = 0
  if at then since = tonumber(string.sub(v, 1, at - 1)) or 0 end
  return { 0, v, now - since }
end
local nv = now .. ':' .. ARGV[1]
redis.call('SET', KEYS[1], nv)
return { 1, nv }
