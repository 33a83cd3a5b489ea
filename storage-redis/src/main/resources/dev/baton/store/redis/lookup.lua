-- The run-id lookup key (RunLookup): reserve.lua and swap.lua, and the one-round-trip scripts on a standalone
-- server that reserve or release it in the same script as the run's write (sinsert, sdelete, sddelete).

-- Points the lookup key `key` at `suffix` (what follows the nonce: the agentId, or in a bucketed layout the bucket
-- mark, k/N: and the agentId, see RunLookup) under the fresh 16-character `nonce`. Returns 0, changing nothing, when
-- another agent (or another bucket) holds this run id; else 1.
local function reserveLookup(key, suffix, nonce)
  local v = redis.call('GET', key)
  if v and string.sub(v, 17) ~= suffix then return 0 end
  redis.call('SET', key, nonce .. suffix)
  return 1
end

-- Sets `key` to `new` ('' deletes it) only if it holds `expected`. Returns 1 when changed, else 0.
local function swapLookup(key, expected, new)
  if redis.call('GET', key) ~= expected then return 0 end
  if new == '' then redis.call('DEL', key) else redis.call('SET', key, new) end
  return 1
end
