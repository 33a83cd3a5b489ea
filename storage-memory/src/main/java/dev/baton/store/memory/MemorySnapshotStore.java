package dev.baton.store.memory;

import dev.baton.StorageException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 * <p>It declares no {@link dev.baton.store.StoreCapability}: it is not shared between processes
 * and not durable. Closing a handle is idempotent; the closed handle refuses every later call
 * with a {@link StorageException}, while other handles on the same named store go on working.
 */
public final class MemorySnapshotStore implements SnapshotStore {

    private static final Map<String, Data> NAMED = new ConcurrentHashMap<>();

    /** The shared state; several store handles may point at one. */
    private static final class Data {
        final ReadWriteLock lock = new ReentrantReadWriteLock();
        final Map<String, RunSnapshot> byId = new HashMap<>();
        /** Index key (agent, agent+thread, agent+resource) to the runs under it, in listing order. */
        final Map<String, NavigableSet<RunSnapshot>> indexes = new HashMap<>();
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
            NavigableSet<RunSnapshot> index = data.indexes.get(indexKey(query.agentId(), query.threadId(), query.resourceId()));
            if (index == null || query.emptyDateRange()) return new RunPage(List.of(), 0);
            NavigableSet<RunSnapshot> range = index;
            // the index is in listing order (newest first), so the date bounds select a contiguous range
            if (query.createdTo() != null) {
                range = range.tailSet(probe(query.createdTo(), true), true);
            }
            if (query.createdFrom() != null) {
                range = range.headSet(probe(query.createdFrom(), false), true);
            }
            List<RunSnapshot> items = new ArrayList<>();
            long total = 0;
            long offset = query.offset();
            Integer limit = query.limit();
            for (RunSnapshot s : range) {
                if (!query.matches(s)) continue;
                if (total >= offset && (limit == null || items.size() < limit)) items.add(s);
                total++;
            }
            return new RunPage(items, total);
        } finally {
            data.lock.readLock().unlock();
        }
    }

    /** A boundary element for a range over creation time: sorts before (first) or after (last) every real run at {@code t}. */
    private static RunSnapshot probe(java.time.Instant t, boolean first) {
        // runIds compare descending: the greatest possible id sorts first, the empty-ish lowest id last
        String id = first ? "\uffff\uffff\uffff" : "\u0000";
        return new RunSnapshot(id, "probe", dev.baton.agent.RunStatus.SUSPENDED, null, null, t, t, 1, null, null, "");
    }

    private void put(RunSnapshot s) {
        data.byId.put(s.runId(), s);
        for (String key : keys(s)) data.indexes.computeIfAbsent(key, k -> new TreeSet<>(RunQuery.ORDER)).add(s);
    }

    private void remove(RunSnapshot s) {
        data.byId.remove(s.runId());
        for (String key : keys(s)) {
            NavigableSet<RunSnapshot> set = data.indexes.get(key);
            if (set != null) {
                set.remove(s);
                if (set.isEmpty()) data.indexes.remove(key);
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

    /** None: the in-memory store is neither shared between processes nor durable. */
    @Override
    public Set<dev.baton.store.StoreCapability> capabilities() {
        return Set.of();
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
