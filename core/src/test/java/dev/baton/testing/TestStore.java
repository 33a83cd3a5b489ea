package dev.baton.testing;

import dev.baton.StorageException;
import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small in-memory store for core's own tests (core cannot depend on baton-storage-memory, which
 * depends on it). Synchronized; filters with {@link RunQuery#matches}. Counts the calls of
 * {@link #list} so tests can prove that core refused a query before calling the store.
 */
public final class TestStore implements SnapshotStore {
    private final Map<String, RunSnapshot> rows = new LinkedHashMap<>();
    private final Set<StoreCapability> capabilities;
    private final Set<QueryFeature> features;
    private final TestMemoryStore memory = new TestMemoryStore();
    /** How many times {@link #list} was called. */
    public final AtomicInteger listCalls = new AtomicInteger();
    private boolean closed;

    /** A store with no capabilities and the baseline query features. */
    public TestStore() {
        this(EnumSet.noneOf(StoreCapability.class), EnumSet.of(QueryFeature.BASELINE));
    }

    /**
     * A store declaring exactly these capabilities and query features.
     *
     * @param capabilities what it declares
     * @param features     which query features it declares
     */
    public TestStore(Set<StoreCapability> capabilities, Set<QueryFeature> features) {
        this.capabilities = Set.copyOf(capabilities);
        this.features = Set.copyOf(features);
    }

    private void open() {
        if (closed) throw new StorageException(describe() + " is closed");
    }

    @Override
    public synchronized boolean insert(RunSnapshot snapshot) {
        open();
        return rows.putIfAbsent(snapshot.runId(), snapshot) == null;
    }

    @Override
    public synchronized Optional<RunSnapshot> find(String runId) {
        open();
        return Optional.ofNullable(rows.get(runId));
    }

    @Override
    public synchronized boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        open();
        RunSnapshot cur = rows.get(replacement.runId());
        if (cur == null || cur.version() != expectedVersion) return false;
        rows.put(replacement.runId(), replacement);
        return true;
    }

    @Override
    public synchronized boolean delete(String runId, long expectedVersion) {
        open();
        RunSnapshot cur = rows.get(runId);
        if (cur == null || cur.version() != expectedVersion) return false;
        rows.remove(runId);
        return true;
    }

    @Override
    public synchronized RunPage list(RunQuery q) {
        open();
        listCalls.incrementAndGet();
        List<RunSnapshot> all = rows.values().stream().filter(q::matches).sorted(RunQuery.ORDER).toList();
        List<RunSnapshot> from = q.after() == null ? all : all.stream().filter(q.after()::precedes).toList();
        int start = (int) Math.min(from.size(), q.offset());
        int end = q.limit() == null ? from.size() : (int) Math.min(from.size(), start + (long) q.limit());
        List<RunSnapshot> page = new ArrayList<>();
        for (RunSnapshot s : from.subList(start, end)) page.add(q.withPayload() ? s : s.toBuilder().payload("").build());
        return new RunPage(page, all.size());
    }

    @Override
    public synchronized List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        open();
        return rows.values().stream()
                .filter(s -> s.agentId().equals(agentId) && s.expiresAt() != null && !s.expiresAt().isAfter(now)
                        && s.effectiveStatus(now) == RunStatus.SUSPENDED)
                .sorted(Comparator.comparing((RunSnapshot s) -> s.expiresAt()).thenComparing(RunSnapshot::runId))
                .limit(limit).toList();
    }

    @Override
    public synchronized boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        open();
        RunSnapshot cur = rows.get(runId);
        if (cur == null || cur.version() != expectedVersion || cur.status() != RunStatus.RESUMING
                || !owner.equals(cur.leaseOwner())) {
            return false;
        }
        rows.put(runId, cur.renewed(newExpiry));
        return true;
    }

    /**
     * Replaces a stored row behind every claim's back (a test's "another process").
     *
     * @param s the new row
     */
    public synchronized void overwrite(RunSnapshot s) {
        rows.put(s.runId(), s);
    }

    @Override
    public Optional<MemoryStore> memory() {
        return capabilities.contains(StoreCapability.THREAD_MEMORY) ? Optional.of(memory) : Optional.empty();
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    @Override
    public Set<QueryFeature> queryFeatures() {
        return features;
    }

    @Override
    public Instant now() {
        if (!capabilities.contains(StoreCapability.STORE_CLOCK)) return SnapshotStore.super.now();
        return Instant.now();
    }

    @Override
    public String describe() {
        return "TestStore";
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
