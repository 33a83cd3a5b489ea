package dev.baton.store.memory;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The runs of one in-memory store and their indexes, shared by every handle on it, under one lock
 * that the caller takes ({@link #lock}: the write lock around {@link #put} and {@link #remove}, the
 * read lock around reads):
 *
 * <ul>
 *   <li>{@link #byId}: run id to snapshot;</li>
 *   <li>one {@link Index} per agent, per agent and thread, per agent and resource, and per all three
 *       ({@link #index}): the runs under that key in listing order ({@link Position}), in a tree that
 *       counts, and apart the ones stored as {@code RESUMING};</li>
 *   <li>per agent, its runs with a deadline in deadline order ({@link #due});</li>
 *   <li>per agent, its runs with a notification in {@code notifyAt} order ({@link #notifications});</li>
 *   <li>per agent and decider label, its runs stored as {@code SUSPENDED} with that label, in listing
 *       order ({@link #labelled}): what a deciders filter reads.</li>
 * </ul>
 */
final class MemoryRuns {
    final ReadWriteLock lock = new ReentrantReadWriteLock();
    final Map<String, RunSnapshot> byId = new HashMap<>();
    /** Index key (agent, agent+thread, agent+resource, all three) to the runs under it. */
    private final Map<String, Index> indexes = new HashMap<>();
    /** Per agent, its runs with a deadline, soonest first, ties by run id ascending. */
    final Map<String, NavigableMap<Due, RunSnapshot>> due = new HashMap<>();
    /** Per agent, its runs with a notification due, oldest {@code notifyAt} first, ties by run id ascending. */
    final Map<String, NavigableMap<Due, RunSnapshot>> notifications = new HashMap<>();
    /** Per agent and decider label, its runs stored as SUSPENDED with the label, in listing order. */
    private final Map<String, NavigableMap<Position, RunSnapshot>> labelled = new HashMap<>();

    /**
     * The runs under one index key: all of them in listing order, in a tree that counts (so the
     * total of any date range and the start of any page are O(log n)), and apart, the ones stored as
     * {@code RESUMING}, few at any time, which are all an effective-status filter has to look at.
     */
    static final class Index {
        final CountedTree<Position, RunSnapshot> all = new CountedTree<>();
        final NavigableMap<Position, RunSnapshot> resuming = new TreeMap<>();
    }

    /** A place in deadline order: {@code expiresAt} ascending, then run id ascending. */
    record Due(Instant expiresAt, String runId) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = expiresAt.compareTo(o.expiresAt);
            return c != 0 ? c : runId.compareTo(o.runId);
        }
    }

    /** The index of the runs of {@code agent}, of one thread and/or resource of it if not null; null if no run is under it. */
    Index index(String agent, String thread, String resource) {
        return indexes.get(indexKey(agent, thread, resource));
    }

    /** The runs of {@code agent} stored as {@code SUSPENDED} with decider label {@code label}, in listing order; null if none. */
    NavigableMap<Position, RunSnapshot> labelled(String agent, String label) {
        return labelled.get(labelKey(agent, label));
    }

    /**
     * A place in the listing order ({@code createdAt} descending, then {@code runId} descending,
     * as {@link RunQuery#ORDER}): a run's, or the edge just before or just after every run created
     * at one instant. The edges bound a date range; a sentinel run id could not, since some id
     * always sorts beyond it (four U+FFFF characters sort after three).
     */
    record Position(Instant createdAt, int edge, String runId) implements Comparable<Position> {
        static final int BEFORE = -1;
        static final int RUN = 0;
        static final int AFTER = 1;

        static Position of(RunSnapshot s) {
            return new Position(s.createdAt(), RUN, s.runId());
        }

        static Position of(RunQuery.After after) {
            return new Position(after.createdAt(), RUN, after.runId());
        }

        static Position before(Instant createdAt) {
            return new Position(createdAt, BEFORE, "");
        }

        static Position after(Instant createdAt) {
            return new Position(createdAt, AFTER, "");
        }

        @Override
        public int compareTo(Position o) {
            int c = o.createdAt.compareTo(createdAt);   // newest first
            if (c != 0) return c;
            c = Integer.compare(edge, o.edge);
            if (c != 0 || edge != RUN) return c;
            return o.runId.compareTo(runId);            // then run id descending
        }
    }

    /** Adds {@code s} to the runs and every index it belongs in. */
    void put(RunSnapshot s) {
        byId.put(s.runId(), s);
        Position p = Position.of(s);
        for (String key : keys(s)) {
            Index index = indexes.computeIfAbsent(key, k -> new Index());
            index.all.put(p, s);
            if (s.status() == RunStatus.RESUMING) index.resuming.put(p, s);
        }
        if (s.expiresAt() != null) {
            due.computeIfAbsent(s.agentId(), k -> new TreeMap<>()).put(new Due(s.expiresAt(), s.runId()), s);
        }
        if (s.notifyAt() != null) {
            notifications.computeIfAbsent(s.agentId(), k -> new TreeMap<>()).put(new Due(s.notifyAt(), s.runId()), s);
        }
        if (s.status() == RunStatus.SUSPENDED) {
            for (String label : s.deciders()) labelled.computeIfAbsent(labelKey(s.agentId(), label), k -> new TreeMap<>()).put(p, s);
        }
    }

    /** Removes {@code s} (as stored) from the runs and every index. */
    void remove(RunSnapshot s) {
        byId.remove(s.runId());
        Position p = Position.of(s);
        for (String key : keys(s)) {
            Index index = indexes.get(key);
            if (index != null) {
                index.all.remove(p);
                index.resuming.remove(p);
                if (index.all.isEmpty()) indexes.remove(key);
            }
        }
        if (s.expiresAt() != null) {
            NavigableMap<Due, RunSnapshot> deadlines = due.get(s.agentId());
            if (deadlines != null) {
                deadlines.remove(new Due(s.expiresAt(), s.runId()));
                if (deadlines.isEmpty()) due.remove(s.agentId());
            }
        }
        if (s.notifyAt() != null) {
            NavigableMap<Due, RunSnapshot> notices = notifications.get(s.agentId());
            if (notices != null) {
                notices.remove(new Due(s.notifyAt(), s.runId()));
                if (notices.isEmpty()) notifications.remove(s.agentId());
            }
        }
        if (s.status() == RunStatus.SUSPENDED) {
            for (String label : s.deciders()) {
                String key = labelKey(s.agentId(), label);
                NavigableMap<Position, RunSnapshot> runsWithIt = labelled.get(key);
                if (runsWithIt != null) {
                    runsWithIt.remove(p);
                    if (runsWithIt.isEmpty()) labelled.remove(key);
                }
            }
        }
    }

    private static String labelKey(String agent, String label) {
        return agent.length() + ":" + agent + "|" + label;
    }

    private static List<String> keys(RunSnapshot s) {
        List<String> keys = new ArrayList<>(4);
        keys.add(indexKey(s.agentId(), null, null));
        if (s.threadId() != null) keys.add(indexKey(s.agentId(), s.threadId(), null));
        if (s.resourceId() != null) keys.add(indexKey(s.agentId(), null, s.resourceId()));
        if (s.threadId() != null && s.resourceId() != null) keys.add(indexKey(s.agentId(), s.threadId(), s.resourceId()));
        return keys;
    }

    /** Length-prefixed parts, so no id content can make two different keys collide. */
    private static String indexKey(String agent, String thread, String resource) {
        StringBuilder b = new StringBuilder();
        for (String part : new String[] {agent, thread, resource}) {
            if (part == null) b.append("-|");
            else b.append(part.length()).append(':').append(part).append('|');
        }
        return b.toString();
    }
}
