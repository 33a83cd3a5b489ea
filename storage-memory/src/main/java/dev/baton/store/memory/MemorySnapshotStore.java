package dev.baton.store.memory;

import dev.baton.agent.RunStatus;
import dev.baton.StorageException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
 * changed from outside; compare-and-set is atomic; and listing walks only the index of the
 * queried agent (and thread or resource), in listing order, never other agents' runs.
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
        /** Index key (agent, agent+thread, agent+resource) to the runs under it, in listing order. */
        final Map<String, NavigableMap<Position, RunSnapshot>> indexes = new HashMap<>();
    }

    private final Data data;
    private final String name;
    private volatile boolean closed;

    private MemorySnapshotStore(Data data, String name) {
        this.data = data;
        this.name = name;
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

    /** {@link StoreCapability#STORE_CLOCK} only: the store is neither shared between processes nor durable. */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.STORE_CLOCK);
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

    @Override
    public RunPage list(RunQuery query) {
        checkOpen("list");
        data.lock.readLock().lock();
        try {
            NavigableMap<Position, RunSnapshot> index =
                    data.indexes.get(indexKey(query.agentId(), query.threadId(), query.resourceId()));
            if (index == null || query.emptyDateRange()) return new RunPage(List.of(), 0);
            // the index is in listing order (newest first), so the date bounds select a contiguous range,
            // from the edge before every run created at createdTo to the edge after every run created at createdFrom
            NavigableMap<Position, RunSnapshot> range = index;
            if (query.createdTo() != null) range = range.tailMap(Position.before(query.createdTo()), false);
            if (query.createdFrom() != null) range = range.headMap(Position.after(query.createdFrom()), false);
            List<RunSnapshot> items = new ArrayList<>();
            long total = 0;
            long offset = query.offset();
            Integer limit = query.limit();
            for (RunSnapshot s : range.values()) {
                if (!query.matches(s)) continue;
                if (total >= offset && (limit == null || items.size() < limit)) items.add(s);
                total++;
            }
            return new RunPage(items, total);
        } finally {
            data.lock.readLock().unlock();
        }
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
        for (String key : keys(s)) data.indexes.computeIfAbsent(key, k -> new TreeMap<>()).put(Position.of(s), s);
    }

    private void remove(RunSnapshot s) {
        data.byId.remove(s.runId());
        for (String key : keys(s)) {
            NavigableMap<Position, RunSnapshot> index = data.indexes.get(key);
            if (index != null) {
                index.remove(Position.of(s));
                if (index.isEmpty()) data.indexes.remove(key);
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
