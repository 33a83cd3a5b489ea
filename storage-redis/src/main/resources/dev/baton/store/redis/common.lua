-- Shared by insert, cas, delete, renew, list and due. ARGV[1] is the agent's key base "<prefix>:{<hex agentId>}:".
-- Every key below starts with it, so one agent's keys share one hash tag (one Cluster slot).
-- Ids in key names are hex of their UTF-8 bytes: no character of an id can break the hash tag,
-- act as a separator or make two keys collide. Sorted-set members are the raw runIds.
-- A script on one run by id on a standalone server (s*.lua: RedisAccess#oneScript) passes the key prefix instead
-- and takes the base from the run-id lookup key (locateRun below, which calls useBase).
local base, HELD, LAPSED, DUE, NOTIFY

-- The hex of a string: one string.format over its bytes (128 at a time), each distinct string once per script call
-- (a script names the same thread, resource and run ids in many keys).
local HEX_MEMO = {}
local function hex(s)
  local h = HEX_MEMO[s]
  if h then return h end
  local n = string.len(s)
  if n <= 128 then
    h = string.format(string.rep('%02x', n), string.byte(s, 1, n))
  else
    local parts = {}
    for i = 1, n, 128 do
      local j = math.min(i + 127, n)
      parts[#parts + 1] = string.format(string.rep('%02x', j - i + 1), string.byte(s, i, j))
    end
    h = table.concat(parts)
  end
  HEX_MEMO[s] = h
  return h
end

-- HGET/HMGET give false for a missing field: that is "null"; an empty string stays a value.
local function opt(v)
  if v == false then return nil end
  return v
end

local function runKey(id)
  return base .. 'run:' .. hex(id)
end

-- The index key of one family ("sus", "res", "all") for a filter on thread and / or resource.
local function indexKey(fam, thread, res)
  if thread and res then return base .. fam .. ':tr:' .. hex(thread) .. ':' .. hex(res) end
  if thread then return base .. fam .. ':t:' .. hex(thread) end
  if res then return base .. fam .. ':r:' .. hex(res) end
  return base .. fam .. ':a'
end

-- Every index of one family a run with this thread and resource belongs to.
local function indexKeys(fam, thread, res)
  local ks = { indexKey(fam, nil, nil) }
  if thread then ks[#ks + 1] = indexKey(fam, thread, nil) end
  if res then ks[#ks + 1] = indexKey(fam, nil, res) end
  if thread and res then ks[#ks + 1] = indexKey(fam, thread, res) end
  return ks
end

-- The decider labels of a run's "deciders" field (RunSnapshot.deciders(), separated by NUL, which no label holds).
local function labelsOf(field)
  local out = {}
  if not field or field == '' then return out end
  local i = 1
  while true do
    local j = string.find(field, '\0', i, true)
    if not j then
      out[#out + 1] = string.sub(field, i)
      return out
    end
    out[#out + 1] = string.sub(field, i, j - 1)
    i = j + 1
  end
end

-- The runs stored SUSPENDED with decider label `label`, scored by createdAt: the deciders filter of list.lua.
-- A RESUMING run (a claim) is in none of them: it waits for no decision.
local function labelKey(label)
  return base .. 'dl:' .. hex(label)
end

local function addTo(fam, thread, res, score, id)
  for _, k in ipairs(indexKeys(fam, thread, res)) do redis.call('ZADD', k, score, id) end
end

local function removeFrom(fam, thread, res, id)
  for _, k in ipairs(indexKeys(fam, thread, res)) do redis.call('ZREM', k, id) end
end

-- Points every key of this file at the key space whose base is b (the agent's, or a bucket's).
-- HELD and LAPSED: the RESUMING runs filed as live / as expired, scored by leaseExpiresAt.
-- DUE: the runs with a deadline, scored by expiresAt: listDue is a range of it.
-- NOTIFY: the runs with a notification due, scored by notifyAt: listNotificationsDue is a range of it.
local function useBase(b)
  base = b
  HELD = b .. 'lease:held'
  LAPSED = b .. 'lease:lapsed'
  DUE = b .. 'due'
  NOTIFY = b .. 'notify'
end
useBase(ARGV[1])

-- Files a run that was just written. A RESUMING run goes to the "res" family and the held-lease set;
-- the next listing moves it to "sus" if its lease has expired by then.
local function fileRun(id, f)
  addTo('all', f.threadId, f.resourceId, f.createdAt, id)
  if f.expiresAt then redis.call('ZADD', DUE, f.expiresAt, id) end
  if f.notifyAt then redis.call('ZADD', NOTIFY, f.notifyAt, id) end
  if f.status == 'RESUMING' then
    addTo('res', f.threadId, f.resourceId, f.createdAt, id)
    redis.call('ZADD', HELD, f.leaseExpiresAt, id)
  else
    addTo('sus', f.threadId, f.resourceId, f.createdAt, id)
    for _, l in ipairs(labelsOf(f.deciders)) do redis.call('ZADD', labelKey(l), f.createdAt, id) end
  end
end

-- Removes a run from every index it may be in, whatever its filing; deciders is its "deciders" field (or nil).
local function unfileRun(id, thread, res, deciders)
  for _, l in ipairs(labelsOf(deciders)) do redis.call('ZREM', labelKey(l), id) end
  removeFrom('all', thread, res, id)
  removeFrom('sus', thread, res, id)
  removeFrom('res', thread, res, id)
  redis.call('ZREM', HELD, id)
  redis.call('ZREM', LAPSED, id)
  redis.call('ZREM', DUE, id)
  redis.call('ZREM', NOTIFY, id)
end

-- The fields a run's filing depends on, as HMGET gives them after `extra` leading fields (nil where absent): the
-- arguments of unfileKnown and refileRun.
local FILED = { 'status', 'threadId', 'resourceId', 'createdAt', 'deciders', 'expiresAt', 'notifyAt', 'leaseExpiresAt' }
local function filedFrom(cur, at)
  return { status = opt(cur[at]), threadId = opt(cur[at + 1]), resourceId = opt(cur[at + 2]), createdAt = opt(cur[at + 3]),
    deciders = opt(cur[at + 4]), expiresAt = opt(cur[at + 5]), notifyAt = opt(cur[at + 6]), leaseExpiresAt = opt(cur[at + 7]) }
end

-- Where a stored run is filed, from its fields (filedFrom), as the scripts that write indexes keep it: in the "all"
-- family; DUE with an expiresAt, NOTIFY with a notifyAt; SUSPENDED: the "sus" family and its label sets; RESUMING: the
-- "res" family and HELD, or, once a listing found its lease expired (list.lua's refile, which moves both together),
-- the "sus" family and LAPSED. So a RESUMING run is lapsed exactly when it is in LAPSED.
-- Removes run `id` from the indexes its fields `old` say it is in: the entries unfileRun removes, without the
-- ZREMs of sets it cannot be in. Any other status (not written by this store) takes unfileRun.
local function unfileKnown(id, old)
  if old.status ~= 'SUSPENDED' and old.status ~= 'RESUMING' then
    unfileRun(id, old.threadId, old.resourceId, old.deciders)
    return
  end
  removeFrom('all', old.threadId, old.resourceId, id)
  if old.expiresAt then redis.call('ZREM', DUE, id) end
  if old.notifyAt then redis.call('ZREM', NOTIFY, id) end
  if old.status == 'SUSPENDED' then
    removeFrom('sus', old.threadId, old.resourceId, id)
    for _, l in ipairs(labelsOf(old.deciders)) do redis.call('ZREM', labelKey(l), id) end
  elseif redis.call('ZREM', LAPSED, id) == 1 then
    removeFrom('sus', old.threadId, old.resourceId, id)
  else
    removeFrom('res', old.threadId, old.resourceId, id)
    redis.call('ZREM', HELD, id)
  end
end

-- Moves run `id` from the filing of its stored fields `old` (filedFrom) to that of the fields `f` being written
-- (fieldsFrom): the same end state as unfileRun then fileRun, changing only the entries that differ. A change of
-- thread, resource, creation time or a status this store does not write takes unfileKnown then fileRun.
local function refileRun(id, old, f)
  if old.threadId ~= f.threadId or old.resourceId ~= f.resourceId or old.createdAt ~= f.createdAt
      or (old.status ~= 'SUSPENDED' and old.status ~= 'RESUMING') or (f.status ~= 'SUSPENDED' and f.status ~= 'RESUMING') then
    unfileKnown(id, old)
    fileRun(id, f)
    return
  end
  -- the "all" family: the same keys at the same score (createdAt)
  if old.expiresAt ~= f.expiresAt then
    if f.expiresAt then redis.call('ZADD', DUE, f.expiresAt, id) else redis.call('ZREM', DUE, id) end
  end
  if old.notifyAt ~= f.notifyAt then
    if f.notifyAt then redis.call('ZADD', NOTIFY, f.notifyAt, id) else redis.call('ZREM', NOTIFY, id) end
  end
  local thread, res, createdAt = f.threadId, f.resourceId, f.createdAt
  if old.status == 'SUSPENDED' then
    if f.status == 'SUSPENDED' then
      if old.deciders ~= f.deciders then
        local keep = {}
        for _, l in ipairs(labelsOf(f.deciders)) do keep[l] = true end
        for _, l in ipairs(labelsOf(old.deciders)) do
          if not keep[l] then redis.call('ZREM', labelKey(l), id) end
        end
        for _, l in ipairs(labelsOf(f.deciders)) do redis.call('ZADD', labelKey(l), createdAt, id) end
      end
    else
      for _, l in ipairs(labelsOf(old.deciders)) do redis.call('ZREM', labelKey(l), id) end
      removeFrom('sus', thread, res, id)
      addTo('res', thread, res, createdAt, id)
      redis.call('ZADD', HELD, f.leaseExpiresAt, id)
    end
    return
  end
  local lapsed = redis.call('ZREM', LAPSED, id) == 1
  if f.status == 'RESUMING' then
    if lapsed then
      removeFrom('sus', thread, res, id)
      addTo('res', thread, res, createdAt, id)
    end
    if lapsed or old.leaseExpiresAt ~= f.leaseExpiresAt then redis.call('ZADD', HELD, f.leaseExpiresAt, id) end
  else
    if not lapsed then
      removeFrom('res', thread, res, id)
      addTo('sus', thread, res, createdAt, id)
      redis.call('ZREM', HELD, id)
    end
    for _, l in ipairs(labelsOf(f.deciders)) do redis.call('ZADD', labelKey(l), createdAt, id) end
  end
end

-- The fields a compare-and-set may leave out (a null field is an absent one): those the written fields `f` lack,
-- to HDEL before the HSET.
local OPTIONAL = { 'threadId', 'resourceId', 'leaseOwner', 'leaseExpiresAt', 'expiresAt', 'summary', 'notifyAt',
  'notifyState', 'deciders' }
local function dropAbsent(key, f)
  local gone = {}
  for _, name in ipairs(OPTIONAL) do
    if f[name] == nil then gone[#gone + 1] = name end
  end
  if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
end

-- ARGV[from..] are field/value pairs; returns them as a table, and the flat list for HSET.
local function fieldsFrom(from)
  local f, flat = {}, {}
  for i = from, #ARGV, 2 do
    f[ARGV[i]] = ARGV[i + 1]
    flat[#flat + 1] = ARGV[i]
    flat[#flat + 1] = ARGV[i + 1]
  end
  return f, flat
end

-- The fields of a run as list and due return it: fixed positions (nil where absent), the payload 13th,
-- then notifyAt, notifyState and the decider labels (the "deciders" field).
-- Without payloads (withPayload "0") the payload is not read, and comes back as '': the summary is what
-- a listing shows.
local ROW = { 'runId', 'agentId', 'status', 'threadId', 'resourceId', 'createdAt', 'suspendedAt', 'version',
  'leaseOwner', 'leaseExpiresAt', 'expiresAt', 'summary', 'notifyAt', 'notifyState', 'deciders' }
local ROW_WITH_PAYLOAD = { 'runId', 'agentId', 'status', 'threadId', 'resourceId', 'createdAt', 'suspendedAt',
  'version', 'leaseOwner', 'leaseExpiresAt', 'expiresAt', 'summary', 'payload', 'notifyAt', 'notifyState', 'deciders' }
local function row(id, withPayload)
  local key = runKey(id)
  if withPayload then return redis.call('HMGET', key, unpack(ROW_WITH_PAYLOAD)) end
  local r = redis.call('HMGET', key, unpack(ROW))
  r[16] = r[15]
  r[15] = r[14]
  r[14] = r[13]
  r[13] = ''
  return r
end

-- The page of a listing as a rank range of the sorted set key in listing order (ZREVRANGE: score descending,
-- then member descending), for list.lua and dlist.lua. It starts after the members scored at or above `above`
-- (a ZCOUNT bound: '(' .. max when max is inclusive, max when exclusive; nil for no upper bound) and after the
-- cursor (cursorScore, cursorId; cursorId nil for none), and ends before the members scored below min.
-- Returns first, last: 0-based ranks, first > last when the range is empty.
local function pageRanks(key, above, min, cursorScore, cursorId)
  local first = 0
  if above then first = redis.call('ZCOUNT', key, above, '+inf') end
  if cursorId then
    local at = redis.call('ZSCORE', key, cursorId)
    local after
    if at and tonumber(at) == tonumber(cursorScore) then
      after = redis.call('ZREVRANK', key, cursorId) + 1
    else
      -- The cursor's member has left this set (a run resumed or deleted, a record purged), or is filed at another
      -- score (a cursor not made by Baton): its place is where it would be. Filed there and put back inside this
      -- script, so no other client ever sees it.
      redis.call('ZADD', key, cursorScore, cursorId)
      after = redis.call('ZREVRANK', key, cursorId)
      if at then redis.call('ZADD', key, at, cursorId) else redis.call('ZREM', key, cursorId) end
    end
    if after > first then first = after end
  end
  local last = redis.call('ZCARD', key) - 1
  if min ~= '-inf' then last = redis.call('ZCOUNT', key, min, '+inf') - 1 end
  return first, last
end

-- The writes of one run, shared by the scripts that get the run's key space from the caller (insert, delete, renew,
-- notify: two round trips with the run-id lookup, the Cluster's way) and those that find it in the run-id lookup
-- key themselves (sinsert, sdelete, srenew, snotify: one round trip, standalone only).

-- Stores run `id` as hash `key`, fields ARGV[from..], unless the hash exists.
-- Returns {1} when stored, {0, rsv of the existing run} when the run already exists (nothing changed).
local function insertRun(key, id, from)
  if redis.call('EXISTS', key) == 1 then
    return { 0, redis.call('HGET', key, 'rsv') or '' }
  end
  local f, flat = fieldsFrom(from)
  redis.call('HSET', key, unpack(flat))
  fileRun(id, f)
  return { 1 }
end

-- Deletes run `id` (hash `key`) at version `expected`, and its index entries.
-- Returns the deleted run's reservation nonce, or false when missing or at another version.
local function deleteRun(key, id, expected)
  local cur = redis.call('HMGET', key, 'version', 'rsv', unpack(FILED))
  if cur[1] ~= expected then return false end
  unfileKnown(id, filedFrom(cur, 3))
  redis.call('DEL', key)
  return cur[2] or ''
end

-- Renews the lease of a RESUMING run held by `owner` at version `expected`: sets leaseExpiresAt (`expiry`, epoch millis)
-- and the version (`nextVersion`), and files the run as a compare-and-set writing that snapshot would (cas.lua:
-- unfile, then fileRun): in the "res" family and the held-lease set, scored by the new expiry, out of "sus" and the
-- lapsed-lease set where a listing may have moved it. The "all" family keeps it (its score, createdAt, does not
-- change). The payload is neither read nor written.
-- Returns 1 when renewed, 0 (nothing changed) when the run is missing, at another version, not RESUMING, or held by
-- someone else.
local function renewRun(key, id, expected, owner, expiry, nextVersion)
  local cur = redis.call('HMGET', key, 'version', 'status', 'leaseOwner', 'threadId', 'resourceId', 'createdAt')
  if cur[1] ~= expected or cur[2] ~= 'RESUMING' or cur[3] ~= owner then return 0 end
  -- a run a listing found lapsed is in "sus" and LAPSED (list.lua's refile): back to "res"; else it is in "res" already
  if redis.call('ZREM', LAPSED, id) == 1 then
    local thread, res = opt(cur[4]), opt(cur[5])
    removeFrom('sus', thread, res, id)
    addTo('res', thread, res, cur[6], id)
  end
  redis.call('ZADD', HELD, expiry, id)
  redis.call('HSET', key, 'leaseExpiresAt', expiry, 'version', nextVersion)
  return 1
end

-- Moves the notification of run `id` (hash `key`): if the run is at version `expected` and its notifyAt is
-- `expectedAt` (epoch millis), sets notifyAt to `newAt` ('' for none; and its place in the notification set) and
-- notifyState to `state` (nil for none); the version and every other field stay.
-- Returns 1 when moved, 0 (nothing changed) when the run is missing, at another version, or its notifyAt differs.
local function notifyRun(key, id, expected, expectedAt, newAt, state)
  local cur = redis.call('HMGET', key, 'version', 'notifyAt')
  if cur[1] ~= expected or cur[2] ~= expectedAt then return 0 end
  if newAt == '' then
    redis.call('HDEL', key, 'notifyAt')
    redis.call('ZREM', NOTIFY, id)
  else
    redis.call('HSET', key, 'notifyAt', newAt)
    redis.call('ZADD', NOTIFY, newAt, id)
  end
  if state then redis.call('HSET', key, 'notifyState', state) else redis.call('HDEL', key, 'notifyState') end
  return 1
end

-- Reads the run-id lookup key `lookup` (RunLookup: nonce .. agentId) of a one-bucket layout whose key prefix is
-- `prefix`, and points this file's keys at the agent's key space it names (useBase), as RunLookup.find and
-- RunLookup.parse do in two round trips. Returns the value and what follows the nonce; nil when the key names
-- nothing. A value in the bucketed form (U+0001 after the nonce: only mid-migration between layouts) is returned
-- with false as third value and base unchanged: the caller then reads it as RunLookup.parse does.
-- Standalone servers only: the run's keys are in another slot than the lookup key.
local function locateRun(lookup, prefix)
  local v = redis.call('GET', lookup)
  if not v or string.len(v) <= 16 then return nil end
  local s = string.sub(v, 17)
  if string.byte(s, 1) == 1 then return v, s, false end
  useBase(prefix .. ':{' .. hex(s) .. '}:')
  return v, s, true
end
