-- KEYS[1] the run-id lookup key; ARGV[1] what follows the nonce (the agentId, or in a bucketed layout the bucket
-- mark, k/N: and the agentId, see RunLookup), ARGV[2] a fresh 16-character nonce.
-- The lookup key holds nonce .. ARGV[1]: which agent's (bucket's) slot has the run. Returns 0, changing
-- nothing, when another agent (or another bucket) holds this run id; else points the key at it and returns 1.
return reserveLookup(KEYS[1], ARGV[1], ARGV[2])
