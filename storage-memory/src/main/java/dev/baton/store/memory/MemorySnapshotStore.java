package dev.baton.store.memory;

import dev.baton.StorageException;
import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

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
 * deadline order, {@link #listNotificationsDue} a per-agent index in {@code notifyAt} order. A listing
 * filtered by deciders ({@link QueryFeature#DECIDERS}) reads, per label it asks for, the agent's index of the
 * suspended runs stored with that label. {@link #memory()} keeps threads and their messages beside the runs (see
 * {@code docs/stores/memory.md}).
 *
 * <p>{@code memory:} opens a private store. {@code memory:NAME} opens the store of that name
 * shared inside this JVM (as H2's named in-memory databases): closing it and opening
 * {@code memory:NAME} again finds the same runs, which lets several {@code Agent} instances in one
 * JVM share runs.
 *
 * <p>Leases: {@link #renewLease} replaces the run under the same lock as a compare-and-set, with
 * the payload object shared, not copied. {@link #now()} is this JVM's clock, the only clock an
 * in-memory store has; it declares {@link StoreCapability#STORE_CLOCK}, {@link StoreCapability#THREAD_MEMORY},
 * {@link StoreCapability#DECISIONS} and {@link StoreCapability#NOTIFICATIONS} (it is neither shared between processes nor durable). Closing a handle is idempotent; the closed handle
 * refuses every later call with a {@link StorageException}, while other handles on the same named
 * store go on working.
 *
 * <p>Thread-safe: one handle (and every handle on one named store) may be used from any number of
 * threads at once; a read-write lock per store orders the writes. The caller that opened a handle
 * closes it; closing frees nothing, the data lives as long as the JVM (or until {@link #dropNamed}).
 */
public final class MemorySnapshotStore implements SnapshotStore {

    private static final Map<String, Data> NAMED = new ConcurrentHashMap<>();

    /** The shared state; several store handles may point at one. */
    private static final class Data {
        final MemoryRuns runs = new MemoryRuns();
        final MemoryRunListing listing = new MemoryRunListing(runs);
        /** The thread memory of this store (and of every handle on the same named store). */
        final InMemoryMemoryStore.Threads threads = new InMemoryMemoryStore.Threads();
        /** The decision records, under the runs' lock. */
        final MemoryDecisions decisions = new MemoryDecisions();
    }

    private final MemoryRuns runs;
    private final MemoryRunListing listing;
    private final String name;
    private final InMemoryMemoryStore memory;
    private final MemoryDecisions decisions;
    private volatile boolean closed;

    private MemorySnapshotStore(Data data, String name) {
        this.runs = data.runs;
        this.listing = data.listing;
        this.name = name;
        this.memory = new InMemoryMemoryStore(data.threads, this::checkOpen);
        this.decisions = data.decisions;
    }

    /**
     * A new private, empty store.
     *
     * @return the store; closing it loses its runs
     */
    public static MemorySnapshotStore create() {
        return new MemorySnapshotStore(new Data(), "memory:");
    }

    /**
     * The store named {@code name} in this JVM, created empty on first use.
     *
     * @param name the name every handle on the store uses
     * @return a new handle on that store
     */
    public static MemorySnapshotStore named(String name) {
        Objects.requireNonNull(name, "name");
        return new MemorySnapshotStore(NAMED.computeIfAbsent(name, n -> new Data()), "memory:" + name);
    }

    /**
     * Forgets the named store's runs and threads (for tests); handles already open keep them.
     *
     * @param name the store's name
     */
    public static void dropNamed(String name) {
        NAMED.remove(name);
    }

    @Override
    public boolean insert(RunSnapshot snapshot) {
        checkOpen("insert");
        runs.lock.writeLock().lock();
        try {
            if (runs.byId.containsKey(snapshot.runId())) return false;
            runs.put(snapshot);
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        checkOpen("find");
        runs.lock.readLock().lock();
        try {
            return Optional.ofNullable(runs.byId.get(runId));
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        checkOpen("compare-and-set");
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(replacement.runId());
            if (current == null || current.version() != expectedVersion) return false;
            runs.remove(current);
            runs.put(replacement);
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        checkOpen("renew-lease");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(newExpiry, "newExpiry");
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(runId);
            if (current == null || current.version() != expectedVersion || current.status() != RunStatus.RESUMING
                    || !owner.equals(current.leaseOwner())) {
                return false;
            }
            runs.remove(current);
            runs.put(current.renewed(newExpiry));
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    /** This JVM's clock, in milliseconds. */
    @Override
    public Instant now() {
        checkOpen("now");
        return Instant.ofEpochMilli(Clock.systemUTC().millis());
    }

    /**
     * {@link StoreCapability#STORE_CLOCK}, {@link StoreCapability#THREAD_MEMORY}, {@link StoreCapability#DECISIONS}
     * and {@link StoreCapability#NOTIFICATIONS}: the store is neither shared between processes nor durable.
     */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.STORE_CLOCK, StoreCapability.THREAD_MEMORY, StoreCapability.DECISIONS,
                StoreCapability.NOTIFICATIONS);
    }

    /** {@link QueryFeature#BASELINE} and {@link QueryFeature#DECIDERS} (from a per-agent index of each decider label). */
    @Override
    public Set<QueryFeature> queryFeatures() {
        return Set.of(QueryFeature.BASELINE, QueryFeature.DECIDERS);
    }

    /** The run's change and the records under one write lock: both or neither. */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> records) {
        checkOpen("compare-and-set");
        checkRecords(replacement.runId(), records);
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(replacement.runId());
            if (current == null || current.version() != expectedVersion || !decisions.canAdd(records)) return false;
            runs.remove(current);
            runs.put(replacement);
            decisions.add(records);
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    /** The delete and the records under one write lock: both or neither. */
    @Override
    public boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        checkOpen("delete");
        checkRecords(runId, records);
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(runId);
            if (current == null || current.version() != expectedVersion || !decisions.canAdd(records)) return false;
            runs.remove(current);
            decisions.add(records);
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    private static void checkRecords(String runId, List<DecisionRecord> records) {
        if (records.isEmpty()) throw new IllegalArgumentException("no decision records for run '" + runId + "'");
        for (DecisionRecord r : records) {
            if (!r.runId().equals(runId)) {
                throw new IllegalArgumentException("a record of run '" + r.runId() + "' in a write of run '" + runId + "'");
            }
        }
    }

    /** Walks the index of the most selective filter (run, thread, resource, actor, else the agent's), newest first. */
    @Override
    public DecisionPage listDecisions(DecisionQuery query) {
        checkOpen("listDecisions");
        runs.lock.readLock().lock();
        try {
            return decisions.list(query);
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    @Override
    public Optional<DecisionRecord> findDecision(String agentId, String idempotencyKey) {
        checkOpen("findDecision");
        runs.lock.readLock().lock();
        try {
            return decisions.find(agentId, idempotencyKey);
        } finally {
            runs.lock.readLock().unlock();
        }
    }

    @Override
    public int purgeDecisions(String agentId, Instant olderThan, int limit) {
        checkOpen("purgeDecisions");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        runs.lock.writeLock().lock();
        try {
            return decisions.purge(agentId, olderThan, limit);
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        checkOpen("delete");
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(runId);
            if (current == null || current.version() != expectedVersion) return false;
            runs.remove(current);
            return true;
        } finally {
            runs.lock.writeLock().unlock();
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
        return listing.list(query);
    }

    /** Soonest deadline first, from the agent's deadline index; skips only runs under a live lease. */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        checkOpen("listDue");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        return listing.listDue(agentId, now, limit);
    }

    /** Oldest first, from the agent's notification index. */
    @Override
    public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        checkOpen("listNotificationsDue");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        return listing.listNotificationsDue(agentId, now, limit);
    }

    /** Under the same lock as a compare-and-set; the version stays. */
    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        checkOpen("update-notification");
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        runs.lock.writeLock().lock();
        try {
            RunSnapshot current = runs.byId.get(runId);
            if (current == null || current.version() != expectedVersion
                    || !expectedNotifyAt.truncatedTo(ChronoUnit.MILLIS).equals(current.notifyAt())) {
                return false;
            }
            runs.remove(current);
            runs.put(current.toBuilder().notification(notifyAt, notifyState).build());
            return true;
        } finally {
            runs.lock.writeLock().unlock();
        }
    }

    /** The thread memory of this store: shared by every handle on the same named store, under its own lock. */
    @Override
    public Optional<MemoryStore> memory() {
        checkOpen("memory");
        return Optional.of(memory);
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
