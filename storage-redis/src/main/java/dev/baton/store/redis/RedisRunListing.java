package dev.baton.store.redis;

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
        RedisKeys keys = access.keys;
        return access.call("list", null, () -> {
            Integer limit = q.limit();
            RunQuery.After after = q.after();
            List<Object> r = LIST.run(access.redis, ScriptOutputType.MULTI, new String[] {keys.allIndex(q.agentId())},
                    keys.agentBase(q.agentId()),
                    Long.toString(q.now().toEpochMilli()),
                    q.status() == null ? "" : q.status().name(),
                    q.threadId() == null ? "0" : "1", q.threadId() == null ? "" : q.threadId(),
                    q.resourceId() == null ? "0" : "1", q.resourceId() == null ? "" : q.resourceId(),
                    q.createdFrom() == null ? "-inf" : Long.toString(q.createdFrom().toEpochMilli()),
                    q.createdTo() == null ? "+inf" : Long.toString(q.createdTo().toEpochMilli()),
                    Long.toString(q.offset()),
                    limit == null ? "-1" : Integer.toString(limit),
                    q.withPayload() ? "1" : "0",
                    after == null ? "0" : "1",
                    after == null ? "" : Long.toString(after.createdAt().toEpochMilli()),
                    after == null ? "" : after.runId());
            long total = (Long) r.get(0);
            List<RunSnapshot> items = new ArrayList<>(r.size() - 1);
            for (int i = 1; i < r.size(); i++) items.add(hashes.row(r.get(i)));
            return new RunPage(items, total);
        });
    }

    List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        RedisKeys keys = access.keys;
        return access.call("listDue", null, () -> {
            if (limit == 0) return List.of();
            List<Object> r = DUE.run(access.redis, ScriptOutputType.MULTI, new String[] {keys.dueIndex(agentId)},
                    keys.agentBase(agentId), Long.toString(now.toEpochMilli()), Integer.toString(limit));
            List<RunSnapshot> items = new ArrayList<>(r.size());
            for (Object o : r) items.add(hashes.row(o));
            return items;
        });
    }

    List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        RedisKeys keys = access.keys;
        return access.call("listNotificationsDue", null, () -> {
            List<Object> r = NOTIFY_DUE.run(access.redis, ScriptOutputType.MULTI, new String[] {keys.notifyIndex(agentId)},
                    keys.agentBase(agentId), Long.toString(now.toEpochMilli()), Integer.toString(limit));
            List<RunSnapshot> items = new ArrayList<>(r.size());
            for (Object o : r) items.add(hashes.row(o));
            return items;
        });
    }

    /** notify.lua on the run's hash and the agent's notification set; the version stays. */
    boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        RedisKeys keys = access.keys;
        return access.call("notification update", runId, () -> {
            String agentId = lookup.agentOf(runId);
            if (agentId == null) return false;
            Long r = NOTIFY.run(access.redis, ScriptOutputType.INTEGER, new String[] {keys.run(agentId, runId)},
                    keys.agentBase(agentId), runId, Long.toString(expectedVersion), Long.toString(expectedNotifyAt.toEpochMilli()),
                    notifyAt == null ? "" : Long.toString(notifyAt.toEpochMilli()), notifyState == null ? "0" : "1",
                    notifyState == null ? "" : notifyState);
            return r != null && r == 1L;
        });
    }
}
