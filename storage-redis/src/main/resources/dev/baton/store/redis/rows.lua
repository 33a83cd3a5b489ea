-- KEYS[1] the bucket's "all" index (for routing); ARGV[1] base, ARGV[2] with payloads ("1"/"0"), ARGV[3..] runIds.
-- The rows of these runs, as list.lua returns them (row()), in this order; a run deleted meanwhile gives a row of
-- nils (the store leaves it out). The second pass of a bucketed listing at an offset (see RedisRunListing).
local out = {}
local withPayload = ARGV[2] == '1'
for i = 3, #ARGV do out[#out + 1] = row(ARGV[i], withPayload) end
return out
