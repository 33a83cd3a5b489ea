-- Shared by dcas, ddelete, dlist, dfind and dpurge (after common.lua): the audit trail of decisions, all in the
-- agent's key space (its hash tag), so a decision is written by the same script, on the same node, as the run's change.
--   base .. 'dec:h:' .. hex(decisionId)   hash: the record's fields (a null field left out), decidedAt in epoch millis
--   base .. 'dec:a'                        zset of the agent's decisionIds, score decidedAt
--   base .. 'dec:run:' .. hex(runId)       the same, of one run (kept after the run is gone)
--   base .. 'dec:t:' .. hex(threadId)      of one thread
--   base .. 'dec:r:' .. hex(resourceId)    of one resource
--   base .. 'dec:u:' .. hex(actor)         of one actor
--   base .. 'dec:k:' .. hex(key)           string: the decisionId that carries this idempotency key
-- Equal scores order members by their bytes, so a reverse range is the listing order: decidedAt descending,
-- then decisionId descending (binary).
local DEC, DEC_ALL

-- Points the decision keys at common.lua's base: at load, and again after useBase in a script that finds the
-- run's key space in the run-id lookup key (sddelete.lua).
local function useDecisionBase()
  DEC = base .. 'dec:'
  DEC_ALL = DEC .. 'a'
end
useDecisionBase()

local function decKey(id)
  return DEC .. 'h:' .. hex(id)
end

local function idemKey(key)
  return DEC .. 'k:' .. hex(key)
end

-- The indexes a record with these fields belongs to.
local function decIndexes(f)
  local ks = { DEC_ALL, DEC .. 'run:' .. hex(f.runId), DEC .. 'u:' .. hex(f.actor) }
  if f.threadId then ks[#ks + 1] = DEC .. 't:' .. hex(f.threadId) end
  if f.resourceId then ks[#ks + 1] = DEC .. 'r:' .. hex(f.resourceId) end
  return ks
end

-- Reads the records ARGV[at + 1 .. at + count] hold: per record, its number of field/value pairs, then the
-- pairs. Returns a list of {f = fields by name, flat = the pairs for HSET}.
local function readDecisions(at, count)
  local out, i, last = {}, at + 1, at + count
  while i <= last do
    local n = tonumber(ARGV[i])
    local f, flat = {}, {}
    for j = i + 1, i + 2 * n, 2 do
      f[ARGV[j]] = ARGV[j + 1]
      flat[#flat + 1] = ARGV[j]
      flat[#flat + 1] = ARGV[j + 1]
    end
    out[#out + 1] = { f = f, flat = flat }
    i = i + 1 + 2 * n
  end
  return out
end

-- True if a record's decisionId or idempotency key is already stored (or repeated within the batch):
-- then the write must change nothing.
local function decisionsTaken(ds)
  local ids, keys = {}, {}
  for _, d in ipairs(ds) do
    local id, key = d.f.decisionId, d.f.idempotencyKey
    if ids[id] or redis.call('EXISTS', decKey(id)) == 1 then return true end
    ids[id] = true
    if key then
      if keys[key] or redis.call('EXISTS', idemKey(key)) == 1 then return true end
      keys[key] = true
    end
  end
  return false
end

local function storeDecisions(ds)
  for _, d in ipairs(ds) do
    local f = d.f
    redis.call('HSET', decKey(f.decisionId), unpack(d.flat))
    for _, k in ipairs(decIndexes(f)) do redis.call('ZADD', k, f.decidedAt, f.decisionId) end
    if f.idempotencyKey then redis.call('SET', idemKey(f.idempotencyKey), f.decisionId) end
  end
end

-- delete (common.lua's deleteRun) and the decisions ARGV[at + 1 ..] hold (ARGV[at] of them, see readDecisions), both
-- or nothing; the records stay after the run. Shared by ddelete.lua and sddelete.lua.
-- Returns the deleted run's reservation nonce, or false (nothing changed) when the run is missing, at another version,
-- or a record's decisionId or idempotency key is taken.
local function deleteRunRecorded(key, id, expected, at)
  local cur = redis.call('HMGET', key, 'version')
  if cur[1] ~= expected then return false end
  local ds = readDecisions(at, tonumber(ARGV[at]))
  if decisionsTaken(ds) then return false end
  local nonce = deleteRun(key, id, expected)
  storeDecisions(ds)
  return nonce
end
