package dev.baton.store.memory;

import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.memory.MemoryStore;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link SnapshotStore} in the JVM's memory. <strong>Everything is lost when the JVM stops</strong>:
 * use it for tests, demos and single-process applications that accept losing suspended runs on
 * restart. For anything else pick the JDBC, MongoDB or Redis store.
 *
 * <p>It behaves like a real store: snapshots are immutable records, so what goes in cannot be
 * changed from outside; compare-and-set is atomic; and listing reads only the index of the
 * queried agent (and thread or resource). Each index is a tree in listing order that counts its
 * entries, so a page with its total costs O(log n + page) however many runs match: the total of
 * a date range is a difference of two ranks, a page (at any offset, or after a cursor) starts at a
 * rank, and only the runs stored as {@code RESUMING} under that index (the runs being resumed right
 * now) are checked against the query's {@code now}. {@link #listDue} reads a per-agent index in
 * deadline order. {@link #memory()} keeps threads and their messages beside the runs (see
 * {@code docs/stores/memory.md}).
 *
 * <p>{@code memory:} opens a private store. {@code memory:NAME} opens the store of that name
 * shared inside this JVM (as H2's named in-memory databases): closing it and opening
 * {@code memory:NAME} again finds the same runs, which lets several {@code Agent} instances in one
 * JVM share runs.
 *
 * <p>Leases: {@link #renewLease} replaces the run under the same lock as a compare-and-set, with
 * the payload object shared, not copied. {@link #now()} is this JVM's clock, the only clock an
 * in-memory store has; it declares {@link StoreCapability#STORE_CLOCK} and nothing else (it is
 * neither shared between processes nor durable). Closing a handle is idempotent; the closed handle
 * refuses every later call with a {@link StorageException}, while other handles on the same named
 * store go on working.
 */
public final class MemorySnapshotStore implements SnapshotStore {

    private static final Map<String, Data> NAMED = new ConcurrentHashMap<>();

    /** The shared state; several store handles may point at one. */
    private static final class Data {
        final ReadWriteLock lock = new ReentrantReadWriteLock();
        final Map<String, RunSnapshot> byId = new HashMap<>();
        /** Index key (agent, agent+thread, agent+resource, all three) to the runs under it. */
        final Map<String, Index> indexes = new HashMap<>();
        /** Per agent, its runs with a deadline, soonest first, ties by run id ascending. */
        final Map<String, NavigableMap<Due, RunSnapshot>> due = new HashMap<>();
        /** The thread memory of this store (and of every handle on the same named store). */
        final InMemoryMemoryStore.Threads threads = new InMemoryMemoryStore.Threads();
    }

    /**
     * The runs under one index key: all of them in listing order, in a tree that counts (so the
     * total of any date range and the start of any page are O(log n)), and apart, the ones stored as
     * {@code RESUMING}, few at any time, which are all an effective-status filter has to look at.
     */
    private static final class Index {
        final CountedTree<Position, RunSnapshot> all = new CountedTree<>();
        final NavigableMap<Position, RunSnapshot> resuming = new TreeMap<>();
    }

    /** A place in deadline order: {@code expiresAt} ascending, then run id ascending. */
    private record Due(Instant expiresAt, String runId) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = expiresAt.compareTo(o.expiresAt);
            return c != 0 ? c : runId.compareTo(o.runId);
        }
    }

    private final Data data;
    private final String name;
    private final InMemoryMemoryStore memory;
    private volatile boolean closed;

    private MemorySnapshotStore(Data data, String name) {
        this.data = data;
        this.name = name;
        this.memory = new InMemoryMemoryStore(data.threads, this::checkOpen);
    }

    /** A new private, empty store. */
    public static MemorySnapshotStore create() {
        return new MemorySnapshotStore(new Data(), "memory:");
    }

    /** The store named {@code name} in this JVM, created empty on first use. */
    public static MemorySnapshotStore named(String name) {
        Objects.requireNonNull(name, "name");
        return new MemorySnapshotStore(NAMED.computeIfAbsent(name, n -> new Data()), "memory:" + name);
    }

    /** Forgets the named store's runs (for tests). */
    public static void dropNamed(String name) {
        NAMED.remove(name);
    }

    @Override
    public boolean insert(RunSnapshot snapshot) {
        checkOpen("insert");
        data.lock.writeLock().lock();
        try {
            if (data.byId.containsKey(snapshot.runId())) return false;
            put(snapshot);
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        checkOpen("find");
        data.lock.readLock().lock();
        try {
            return Optional.ofNullable(data.byId.get(runId));
        } finally {
            data.lock.readLock().unlock();
        }
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        checkOpen("compare-and-set");
        data.lock.writeLock().lock();
        try {
            RunSnapshot current = data.byId.get(replacement.runId());
            if (current == null || current.version() != expectedVersion) return false;
            remove(current);
            put(replacement);
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        checkOpen("renew-lease");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(newExpiry, "newExpiry");
        data.lock.writeLock().lock();
        try {
            RunSnapshot current = data.byId.get(runId);
            if (current == null || current.version() != expectedVersion || current.status() != RunStatus.RESUMING
                    || !owner.equals(current.leaseOwner())) {
                return false;
            }
            remove(current);
            put(current.renewed(newExpiry));
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    /** This JVM's clock, in milliseconds. */
    @Override
    public Instant now() {
        checkOpen("now");
        return Instant.ofEpochMilli(Clock.systemUTC().millis());
    }

    /**
     * {@link StoreCapability#STORE_CLOCK} and {@link StoreCapability#THREAD_MEMORY}: the store is neither
     * shared between processes nor durable.
     */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.STORE_CLOCK, StoreCapability.THREAD_MEMORY);
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        checkOpen("delete");
        data.lock.writeLock().lock();
        try {
            RunSnapshot current = data.byId.get(runId);
            if (current == null || current.version() != expectedVersion) return false;
            remove(current);
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    /**
     * O(log n + page + r), where r is the number of runs under the index key that are stored as
     * {@code RESUMING} (runs being resumed right now): the total is the size of a rank range, the
     * page starts at a rank, and only {@code RESUMING} runs need their lease checked against
     * {@code now}.
     */
    @Override
    public RunPage list(RunQuery query) {
        checkOpen("list");
        data.lock.readLock().lock();
        try {
            Index index = data.indexes.get(indexKey(query.agentId(), query.threadId(), query.resourceId()));
            if (index == null || query.emptyDateRange()) return new RunPage(List.of(), 0);
            // the index is in listing order (newest first), so the date bounds select a contiguous rank range,
            // from the edge before every run created at createdTo to the edge after every run created at createdFrom
            Position low = query.createdTo() == null ? null : Position.before(query.createdTo());
            Position high = query.createdFrom() == null ? null : Position.after(query.createdFrom());
            int from = low == null ? 0 : index.all.rankBefore(low);
            int to = high == null ? index.all.size() : index.all.rankBefore(high);
            RunQuery.After after = query.after();
            int start = after == null ? from : Math.max(from, index.all.rankThrough(Position.of(after)));
            Instant now = query.now();
            // the runs under a live lease in the range: the only ones whose effective status is RESUMING
            NavigableMap<Position, RunSnapshot> resumingRange = index.resuming;
            if (low != null) resumingRange = resumingRange.tailMap(low, false);
            if (high != null) resumingRange = resumingRange.headMap(high, false);
            List<RunSnapshot> live = new ArrayList<>();
            for (RunSnapshot s : resumingRange.values()) {
                if (s.effectiveStatus(now) == RunStatus.RESUMING) live.add(s);
            }
            Integer limit = query.limit();
            int max = limit == null ? Integer.MAX_VALUE : limit;
            List<RunSnapshot> items = new ArrayList<>(Math.min(max, 64));
            long total;
            if (query.status() == RunStatus.RESUMING) {
                total = live.size();
                long skip = query.offset();
                for (RunSnapshot s : live) {
                    if (items.size() >= max) break;
                    if (after != null && !after.precedes(s)) continue;
                    if (skip > 0) {
                        skip--;
                        continue;
                    }
                    items.add(s);
                }
            } else {
                boolean suspendedOnly = query.status() == RunStatus.SUSPENDED;
                total = (long) (to - from) - (suspendedOnly ? live.size() : 0);
                // the rank of the first match: skip `offset` matches, stepping over each live run on the way
                long first = (long) start + query.offset();
                if (suspendedOnly) {
                    for (RunSnapshot s : live) {
                        int rank = index.all.rankBefore(Position.of(s));
                        if (rank < start) continue;
                        if (rank <= first) first++;
                        else break;
                    }
                }
                if (max > 0 && first < to) {
                    Iterator<RunSnapshot> it = index.all.valuesFrom((int) first);
                    for (long rank = first; rank < to && items.size() < max && it.hasNext(); rank++) {
                        RunSnapshot s = it.next();
                        if (suspendedOnly && s.effectiveStatus(now) != RunStatus.SUSPENDED) continue;
                        items.add(s);
                    }
                }
            }
            if (!query.withPayload()) items.replaceAll(MemorySnapshotStore::withoutPayload);
            return new RunPage(items, total);
        } finally {
            data.lock.readLock().unlock();
        }
    }

    /** Soonest deadline first, from the agent's deadline index; skips only runs under a live lease. */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        checkOpen("listDue");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        data.lock.readLock().lock();
        try {
            NavigableMap<Due, RunSnapshot> due = data.due.get(agentId);
            List<RunSnapshot> out = new ArrayList<>();
            if (due == null) return out;
            for (RunSnapshot s : due.values()) {
                if (out.size() >= limit || s.expiresAt().isAfter(now)) break;
                if (s.effectiveStatus(now) == RunStatus.SUSPENDED) out.add(s);
            }
            return out;
        } finally {
            data.lock.readLock().unlock();
        }
    }

    /** The thread memory of this store: shared by every handle on the same named store, under its own lock. */
    @Override
    public Optional<MemoryStore> memory() {
        checkOpen("memory");
        return Optional.of(memory);
    }

    /** A listed run without its payload, as a listing that asked for none returns it; a run without a summary keeps it. */
    private static RunSnapshot withoutPayload(RunSnapshot s) {
        if (s.summary() == null || s.payload().isEmpty()) return s;
        return new RunSnapshot(s.runId(), s.agentId(), s.status(), s.threadId(), s.resourceId(), s.createdAt(),
                s.suspendedAt(), s.version(), s.leaseOwner(), s.leaseExpiresAt(), "", s.expiresAt(), s.summary());
    }

    /**
     * A place in the listing order ({@code createdAt} descending, then {@code runId} descending,
     * as {@link RunQuery#ORDER}): a run's, or the edge just before or just after every run created
     * at one instant. The edges bound a date range; a sentinel run id could not, since some id
     * always sorts beyond it (four U+FFFF characters sort after three).
     */
    private record Position(Instant createdAt, int edge, String runId) implements Comparable<Position> {
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

    private void put(RunSnapshot s) {
        data.byId.put(s.runId(), s);
        Position p = Position.of(s);
        for (String key : keys(s)) {
            Index index = data.indexes.computeIfAbsent(key, k -> new Index());
            index.all.put(p, s);
            if (s.status() == RunStatus.RESUMING) index.resuming.put(p, s);
        }
        if (s.expiresAt() != null) {
            data.due.computeIfAbsent(s.agentId(), k -> new TreeMap<>()).put(new Due(s.expiresAt(), s.runId()), s);
        }
    }

    private void remove(RunSnapshot s) {
        data.byId.remove(s.runId());
        Position p = Position.of(s);
        for (String key : keys(s)) {
            Index index = data.indexes.get(key);
            if (index != null) {
                index.all.remove(p);
                index.resuming.remove(p);
                if (index.all.isEmpty()) data.indexes.remove(key);
            }
        }
        if (s.expiresAt() != null) {
            NavigableMap<Due, RunSnapshot> due = data.due.get(s.agentId());
            if (due != null) {
                due.remove(new Due(s.expiresAt(), s.runId()));
                if (due.isEmpty()) data.due.remove(s.agentId());
            }
        }
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

    private void checkOpen(String operation) {
        if (closed) throw new StorageException(describe() + " is closed; " + operation + " was not done");
    }

    @Override
    public String describe() {
        return "in-memory store " + name;
    }

    /** Closes this handle; a named store's runs stay for the next handle, as documented. Idempotent. */
    @Override
    public void close() {
        closed = true;
    }
}
