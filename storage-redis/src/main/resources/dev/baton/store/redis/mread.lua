-- Memory: reads messages by seq. KEYS[1] thread hash, KEYS[2] its messages; ARGV[1] rsv, ARGV[2] mode ("last":
-- the last ARGV[3] messages; "page": ARGV[4] messages from offset ARGV[3]).
-- Seqs run 1..counter without gaps (messages are only ever removed with their thread), so both are a range
-- of seqs read with HMGET: O(page). Returns nil when there is no such thread here, else
-- {total, seq of the first message, message, message, ...}.
local cur = redis.call('HMGET', KEYS[1], 'rsv', 'seq')
if cur[1] ~= ARGV[1] then return false end
local total = tonumber(cur[2])
local from, to
if ARGV[2] == 'last' then
  from = math.max(1, total - tonumber(ARGV[3]) + 1)
  to = total
else
  from = tonumber(ARGV[3]) + 1
  to = math.min(total, tonumber(ARGV[3]) + tonumber(ARGV[4]))
end
local out = { total, from }
local s = from
while s <= to do
  local seqs = {}
  while s <= to and #seqs < 1000 do
    seqs[#seqs + 1] = s
    s = s + 1
  end
  for _, m in ipairs(redis.call('HMGET', KEYS[2], unpack(seqs))) do out[#out + 1] = m end
end
return out
