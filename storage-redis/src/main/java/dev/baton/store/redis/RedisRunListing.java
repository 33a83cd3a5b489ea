package dev.baton.store.redis;

import dev.baton.store.ShardMerge;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import io.lettuce.core.ScriptOutputType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The reads of many runs: {@link RedisSnapshotStore#list}, {@link RedisSnapshotStore#listDue} and
 * {@link RedisSnapshotStore#listNotificationsDue} (with their one write,
 * {@link RedisSnapshotStore#updateNotification}, {@code notify.lua}), each one Lua script on the sorted sets of one agent
 * ({@code list.lua}, {@code due.lua}, {@code notifydue.lua}), so one
 * round trip to the node that holds the agent's slot. The script picks the index from the query's
 * filters, counts the matches ({@code ZCOUNT}), takes the page as a rank range (after a cursor, from
 * the cursor run's rank) and returns the page's fields; a run comes back as a row ({@link RunHashes#row}).
 */
final class RedisRunListing {
    private static final LuaScript LIST = LuaScript.load("list", true);
    private static final LuaScript DUE = LuaScript.load("due", true);
    private static final LuaScript NOTIFY_DUE = LuaScript.load("notifydue", true);
    private static final LuaScript NOTIFY = LuaScript.load("notify", true);
    private static final LuaScript NOTIFY_ONE = LuaScript.compose("snotify", "common");
    private static final LuaScript ROWS = LuaScript.load("rows", true);

    private final RedisAccess access;
    private final RunHashes hashes;
    private final RunLookup lookup;

    RedisRunListing(RedisAccess access, RunHashes hashes, RunLookup lookup) {
        this.access = access;
        this.hashes = hashes;
        this.lookup = lookup;
    }

    RunPage list(RunQuery q) {
        access.checkOpen("list");
        if (q.emptyDateRange()) return new RunPage(List.of(), 0);
        RedisBuckets buckets = access.buckets;
        return access.call("list", null, () -> {
            Integer limit = q.limit();
            String[] bases = buckets.bases(q.agentId());
            if (bases.length == 1 || q.threadId() != null) {
                // a thread's runs are in one bucket: one script on one node, as in the one-bucket layout
                String base = bases[bases.length == 1 ? 0 : buckets.of(q.threadId(), "")];
                List<Object> r = listIn(base, q, q.offset(), limit == null ? -1 : limit);
                List<RunSnapshot> items = new ArrayList<>(r.size() - 1);
                for (int i = 1; i < r.size(); i++) items.add(hashes.row(r.get(i)));
                return new RunPage(items, (Long) r.get(0));
            }
            if (q.offset() > 0 && limit != null && limit > 0) return atOffset(bases, q, limit);
            // every bucket: its first offset + limit rows after the cursor; merged, the offset skipped, limit kept
            long each = limit == null ? -1 : limit == 0 ? 0 : q.offset() + limit;
            long total = 0;
            List<List<RunSnapshot>> pages = new ArrayList<>(bases.length);
            List<List<Object>> replies = access.eachBucket(LIST, ScriptOutputType.MULTI, bases, b -> new String[] {b + "all:a"},
                    b -> listArgs(b, q, 0, each, false));
            for (List<Object> r : replies) {
                total += (Long) r.get(0);
                List<RunSnapshot> items = new ArrayList<>(r.size() - 1);
                for (int i = 1; i < r.size(); i++) items.add(hashes.row(r.get(i)));
                pages.add(items);
            }
            return new RunPage(ShardMerge.merge(pages, ShardMerge.LISTING_ORDER, q.offset(), limit == null ? -1 : limit), total);
        });
    }

    /** A place in a bucket's page: the run's id, its createdAt score, its bucket. */
    private record Entry(String runId, long createdAt, int bucket) {
    }

    private static final java.util.Comparator<Entry> ENTRY_ORDER = (a, b) -> {
        int c = Long.compare(b.createdAt(), a.createdAt());
        return c != 0 ? c : ShardMerge.compareIds(b.runId(), a.runId());
    };

    /**
     * A bucketed page at an offset, in two passes: every bucket's first {@code offset + limit} run ids and scores after
     * the cursor (no rows read), merged to the page's {@code limit} ids; then the rows of those only (rows.lua).
     */
    private RunPage atOffset(String[] bases, RunQuery q, int limit) {
        long each = q.offset() + limit;
        List<List<Object>> replies = access.eachBucket(LIST, ScriptOutputType.MULTI, bases, b -> new String[] {b + "all:a"},
                b -> listArgs(b, q, 0, each, true));
        long total = 0;
        List<List<Entry>> lists = new ArrayList<>(bases.length);
        for (int k = 0; k < bases.length; k++) {
            List<Object> r = replies.get(k);
            total += (Long) r.get(0);
            List<Entry> l = new ArrayList<>((r.size() - 1) / 2);
            for (int i = 1; i + 1 < r.size(); i += 2) l.add(new Entry((String) r.get(i), (long) Double.parseDouble((String) r.get(i + 1)), k));
            lists.add(l);
        }
        List<Entry> page = ShardMerge.merge(lists, ENTRY_ORDER, q.offset(), limit);
        java.util.Map<Integer, List<String>> byBucket = new java.util.TreeMap<>();
        for (Entry e : page) byBucket.computeIfAbsent(e.bucket(), k -> new ArrayList<>()).add(e.runId());
        String[] used = byBucket.keySet().stream().map(k -> bases[k]).toArray(String[]::new);
        List<List<Object>> rows = access.eachBucket(ROWS, ScriptOutputType.MULTI, used, b -> new String[] {b + "all:a"}, b -> {
            List<String> args = new ArrayList<>(List.of(b, q.withPayload() ? "1" : "0"));
            for (int k = 0; k < bases.length; k++) if (bases[k].equals(b)) args.addAll(byBucket.get(k));
            return args.toArray(String[]::new);
        });
        java.util.Map<String, RunSnapshot> found = new java.util.HashMap<>();
        for (List<Object> r : rows) {
            for (Object o : r) {
                if (((List<?>) o).get(0) != null) {
                    RunSnapshot s = hashes.row(o);
                    found.put(s.runId(), s);
                }
            }
        }
        List<RunSnapshot> items = new ArrayList<>(page.size());
        for (Entry e : page) {
            RunSnapshot s = found.get(e.runId());
            if (s != null) items.add(s);   // deleted between the passes: left out, as a later listing would
        }
        return new RunPage(items, total);
    }

    /** list.lua on the bucket whose key base is {@code base}. */
    private List<Object> listIn(String base, RunQuery q, long offset, long limit) {
        return LIST.run(access.redis, ScriptOutputType.MULTI, new String[] {base + "all:a"}, listArgs(base, q, offset, limit, false));
    }

    private static String[] listArgs(String base, RunQuery q, long offset, long limit, boolean idsOnly) {
        RunQuery.After after = q.after();
        String[] args = {
                base,
                Long.toString(q.now().toEpochMilli()),
                q.status() == null ? "" : q.status().name(),
                q.threadId() == null ? "0" : "1", q.threadId() == null ? "" : q.threadId(),
                q.resourceId() == null ? "0" : "1", q.resourceId() == null ? "" : q.resourceId(),
                q.createdFrom() == null ? "-inf" : Long.toString(q.createdFrom().toEpochMilli()),
                q.createdTo() == null ? "+inf" : Long.toString(q.createdTo().toEpochMilli()),
                Long.toString(offset),
                Long.toString(limit),
                q.withPayload() ? "1" : "0",
                after == null ? "0" : "1",
                after == null ? "" : Long.toString(after.createdAt().toEpochMilli()),
                after == null ? "" : after.runId(),
                idsOnly ? "1" : "0",
                "-1"};
        List<RunQuery.Decider> deciders = q.deciders();
        if (deciders == null) return args;
        // the deciders filter: their number, then each one's granting and excluding label
        String[] with = java.util.Arrays.copyOf(args, args.length + 2 * deciders.size());
        with[args.length - 1] = Integer.toString(deciders.size());
        int i = args.length;
        for (RunQuery.Decider d : deciders) {
            with[i++] = d.granted();
            with[i++] = d.unlessExcluded();
        }
        return with;
    }

    List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        return access.call("listDue", null, () -> {
            if (limit == 0) return List.of();
            return eachBucket(DUE, "due", agentId, now, limit, ShardMerge.DUE_ORDER);
        });
    }

    List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        return access.call("listNotificationsDue", null, () -> eachBucket(NOTIFY_DUE, "notify", agentId, now, limit, ShardMerge.NOTIFY_ORDER));
    }

    /** A range script (due.lua, notifydue.lua) on every bucket of the agent, at most {@code limit} each, merged in {@code order}. */
    private List<RunSnapshot> eachBucket(LuaScript script, String index, String agentId, Instant now, int limit,
            java.util.Comparator<RunSnapshot> order) {
        String[] bases = access.buckets.bases(agentId);
        List<List<RunSnapshot>> pages = new ArrayList<>(bases.length);
        List<List<Object>> replies = access.eachBucket(script, ScriptOutputType.MULTI, bases, b -> new String[] {b + index},
                b -> new String[] {b, Long.toString(now.toEpochMilli()), Integer.toString(limit)});
        for (List<Object> r : replies) {
            List<RunSnapshot> items = new ArrayList<>(r.size());
            for (Object o : r) items.add(hashes.row(o));
            pages.add(items);
        }
        return bases.length == 1 ? pages.get(0) : ShardMerge.merge(pages, order, 0, limit);
    }

    /** notify.lua on the run's hash and the agent's notification set (snotify.lua, with the run-id lookup, when {@link RedisAccess#oneScript}); the version stays. */
    boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        return access.call("notification update", runId, () -> {
            if (access.oneScript) {
                // the run-id lookup and notify.lua in one script (RedisAccess#oneScript)
                Long r = NOTIFY_ONE.run(access.redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)},
                        access.keys.prefix(), runId, Long.toString(expectedVersion), Long.toString(expectedNotifyAt.toEpochMilli()),
                        notifyAt == null ? "" : Long.toString(notifyAt.toEpochMilli()), notifyState == null ? "0" : "1",
                        notifyState == null ? "" : notifyState);
                if (r == null || r != RedisRunWrites.IN_STEPS) return r != null && r == 1L;
            }
            RunLookup.Located at = lookup.find(runId);
            if (at == null) return false;
            Long r = NOTIFY.run(access.redis, ScriptOutputType.INTEGER, new String[] {at.runKey(runId)},
                    at.base(), runId, Long.toString(expectedVersion), Long.toString(expectedNotifyAt.toEpochMilli()),
                    notifyAt == null ? "" : Long.toString(notifyAt.toEpochMilli()), notifyState == null ? "0" : "1",
                    notifyState == null ? "" : notifyState);
            return r != null && r == 1L;
        });
    }
}
