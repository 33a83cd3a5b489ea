package dev.baton.http;

import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A store that runs a hook before each listing query (so a test can make runs arrive between the
 * queries of one merged listing) and counts the queries; everything else goes to the store.
 */
final class ListingHookStore implements SnapshotStore {
    private final SnapshotStore delegate;
    /** Runs before each {@link #list} with the query; null: nothing. */
    volatile @Nullable Consumer<RunQuery> beforeList;
    /** How many listing queries were made. */
    final AtomicInteger lists = new AtomicInteger();

    ListingHookStore(SnapshotStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public RunPage list(RunQuery q) {
        lists.incrementAndGet();
        Consumer<RunQuery> hook = beforeList;
        if (hook != null) hook.accept(q);
        return delegate.list(q);
    }

    @Override public boolean insert(RunSnapshot s) { return delegate.insert(s); }

    @Override public Optional<RunSnapshot> find(String runId) { return delegate.find(runId); }

    @Override public boolean compareAndSet(long v, RunSnapshot s) { return delegate.compareAndSet(v, s); }

    @Override public boolean delete(String runId, long v) { return delegate.delete(runId, v); }

    @Override public List<RunSnapshot> listDue(String agentId, Instant now, int limit) { return delegate.listDue(agentId, now, limit); }
    @Override public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        return delegate.listNotificationsDue(agentId, now, limit);
    }
    @Override public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, Instant notifyAt,
            String notifyState) {
        return delegate.updateNotification(runId, expectedVersion, expectedNotifyAt, notifyAt, notifyState);
    }

    @Override public Optional<MemoryStore> memory() { return delegate.memory(); }

    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return delegate.renewLease(runId, expectedVersion, owner, newExpiry);
    }

    @Override public Instant now() { return delegate.now(); }

    @Override public Set<StoreCapability> capabilities() { return delegate.capabilities(); }

    @Override public Set<QueryFeature> queryFeatures() { return delegate.queryFeatures(); }

    @Override public String describe() { return delegate.describe(); }

    @Override public void close() { delegate.close(); }
}
