-- KEYS[1] a lookup key; ARGV[1] the expected value, ARGV[2] the new value ("" deletes).
-- Returns 1 when the key held the expected value and was changed, else 0.
return swapLookup(KEYS[1], ARGV[1], ARGV[2])
