-- Memory: a page of a resource's threads. KEYS[1] the resource's thread listing; ARGV[1] the owner's key base
-- ("<prefix>:m:{r<hex resourceId>}:"), ARGV[2] offset, ARGV[3] limit.
-- Newest update first, ties by threadId descending: a rank range of the sorted set, O(log n + page).
-- Returns {total, thread, thread, ...}, each thread as HMGET of id, resourceId, title, metadata, createdAt, updatedAt.
-- gsub with a table looks each character up in C; the table formats a character the first time it is
-- asked for (a script sees only a few distinct characters), since string.format per character costs
-- most of a listing's time.
local HEX_OF = setmetatable({}, { __index = function(t, c)
  local v = string.format('%02x', string.byte(c))
  rawset(t, c, v)
  return v
end })

local function hex(s)
  return (string.gsub(s, '.', HEX_OF))
end
local out = { redis.call('ZCARD', KEYS[1]) }
local offset, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
if limit == 0 or offset >= out[1] then return out end
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1)) do
  out[#out + 1] = redis.call('HMGET', ARGV[1] .. 'th:' .. hex(id), 'id', 'resourceId', 'title', 'metadata',
    'createdAt', 'updatedAt')
end
return out
