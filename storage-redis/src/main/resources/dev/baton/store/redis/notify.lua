-- KEYS[1] run hash; ARGV[1] base, ARGV[2] runId, ARGV[3] expected version, ARGV[4] expected notifyAt (epoch millis),
-- ARGV[5] new notifyAt ('' for none), ARGV[6] '1' if a new notifyState follows in ARGV[7], else '0' (none).
-- Moves the run's notification (common.lua's notifyRun): if the run is at the expected version and its notifyAt is
-- the expected one, sets notifyAt (and its place in the notification set) and notifyState; the version and every
-- other field stay.
-- Returns 1 when moved, 0 (nothing changed) when the run is missing, at another version, or its notifyAt differs.
local state = nil
if ARGV[6] == '1' then state = ARGV[7] end
return notifyRun(KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], state)
