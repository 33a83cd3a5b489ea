package dev.baton.store.memory;

import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The decision records of one in-memory store, with an index per query shape: per agent, and per
 * agent and run, thread, resource or actor, each a sorted map in listing order (newest first); a map
 * of idempotency keys per agent. Guarded by the runs' lock ({@link MemoryRuns#lock}), so that a
 * record is stored in the same critical section as the run's change. Not thread-safe by itself.
 */
final class MemoryDecisions {
    /** A position in listing order: sorts newest first, ties by decisionId descending. */
    private record Key(Instant decidedAt, String decisionId) implements Comparable<Key> {
        static Key of(DecisionRecord r) {
            return new Key(r.decidedAt(), r.decisionId());
        }

        @Override
        public int compareTo(Key o) {
            int c = o.decidedAt.compareTo(decidedAt);
            return c != 0 ? c : o.decisionId.compareTo(decisionId);
        }
    }

    private final Map<String, NavigableMap<Key, DecisionRecord>> indexes = new HashMap<>();
    private final Map<String, DecisionRecord> byKey = new HashMap<>();
    private final Map<String, DecisionRecord> byId = new HashMap<>();

    private static String idx(String agentId, String field, String value) {
        return agentId.length() + ":" + agentId + "|" + field + "|" + value;
    }

    private static String keyOf(String agentId, String key) {
        return agentId.length() + ":" + agentId + "|" + key;
    }

    /** True if every record can be stored: no decisionId or (agent, key) is taken, within the batch too. */
    boolean canAdd(List<DecisionRecord> records) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (DecisionRecord r : records) {
            if (byId.containsKey(r.decisionId()) || !ids.add(r.decisionId())) return false;
            if (r.idempotencyKey() != null) {
                String k = keyOf(r.agentId(), r.idempotencyKey());
                if (byKey.containsKey(k) || !keys.add(k)) return false;
            }
        }
        return true;
    }

    void add(List<DecisionRecord> records) {
        for (DecisionRecord r : records) {
            byId.put(r.decisionId(), r);
            if (r.idempotencyKey() != null) byKey.put(keyOf(r.agentId(), r.idempotencyKey()), r);
            for (String i : indexesOf(r)) indexes.computeIfAbsent(i, k -> new TreeMap<>()).put(Key.of(r), r);
        }
    }

    private static List<String> indexesOf(DecisionRecord r) {
        List<String> out = new ArrayList<>(5);
        out.add(idx(r.agentId(), "agent", ""));
        out.add(idx(r.agentId(), "run", r.runId()));
        if (r.threadId() != null) out.add(idx(r.agentId(), "thread", r.threadId()));
        if (r.resourceId() != null) out.add(idx(r.agentId(), "resource", r.resourceId()));
        out.add(idx(r.agentId(), "actor", r.actor()));
        return out;
    }

    private void remove(DecisionRecord r) {
        byId.remove(r.decisionId());
        if (r.idempotencyKey() != null) byKey.remove(keyOf(r.agentId(), r.idempotencyKey()));
        for (String i : indexesOf(r)) {
            NavigableMap<Key, DecisionRecord> m = indexes.get(i);
            if (m == null) continue;
            m.remove(Key.of(r));
            if (m.isEmpty()) indexes.remove(i);
        }
    }

    /** Walks the most selective index from the cursor on, in order; reads at most what it returns plus the filtered-out. */
    DecisionPage list(DecisionQuery q) {
        String index = q.runId() != null ? idx(q.agentId(), "run", q.runId())
                : q.threadId() != null ? idx(q.agentId(), "thread", q.threadId())
                : q.resourceId() != null ? idx(q.agentId(), "resource", q.resourceId())
                : q.actor() != null ? idx(q.agentId(), "actor", q.actor())
                : idx(q.agentId(), "agent", "");
        NavigableMap<Key, DecisionRecord> m = indexes.get(index);
        if (m == null) return new DecisionPage(List.of(), false);
        // start after the cursor, and after every key past 'to' (decidedAt <= to, inclusive): Key(to + 1 ms, "")
        // sorts last among the keys of the millisecond after 'to'
        Key start = q.after() == null ? null : new Key(q.after().decidedAt(), q.after().decisionId());
        Key to = q.to() == null ? null : new Key(q.to().plusMillis(1), "");
        if (start == null || to != null && to.compareTo(start) > 0) start = to;
        NavigableMap<Key, DecisionRecord> range = start == null ? m : m.tailMap(start, false);
        List<DecisionRecord> out = new ArrayList<>();
        for (DecisionRecord r : range.values()) {
            if (q.from() != null && r.decidedAt().isBefore(q.from())) break;
            if (!q.matches(r)) continue;
            if (out.size() == q.limit()) return new DecisionPage(out, true);
            out.add(r);
        }
        return new DecisionPage(out, false);
    }

    Optional<DecisionRecord> find(String agentId, String key) {
        return Optional.ofNullable(byKey.get(keyOf(agentId, key)));
    }

    int purge(String agentId, Instant olderThan, int limit) {
        NavigableMap<Key, DecisionRecord> all = indexes.get(idx(agentId, "agent", ""));
        if (all == null) return 0;
        List<DecisionRecord> old = new ArrayList<>();
        for (DecisionRecord r : all.descendingMap().values()) {   // oldest first
            if (!r.decidedAt().isBefore(olderThan) || old.size() == limit) break;
            old.add(r);
        }
        old.forEach(this::remove);
        return old.size();
    }
}
