package dev.baton.http;

import dev.baton.memory.MemoryStore;
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
 * A store that applies {@link RunQuery#after()} (keyset paging) by the SPI's rule on top of any
 * store, and can run a hook before each listing query.
 *
 * <p>Why: on this branch's {@code main}, the stores do not apply {@code after} yet (their keyset
 * indexes arrive with the store branches), so a cursor would list from the start. The HTTP layer's
 * cursor handling is tested here against the rule itself: runs strictly after the position in
 * listing order, at most {@code limit}, the total ignoring the position. Over a store that applies
 * {@code after} already, this only repeats its work.
 */
final class KeysetPagingStore implements SnapshotStore {
    private final SnapshotStore delegate;
    /** Runs before each {@link #list} with the query; null: nothing. */
    volatile @Nullable Consumer<RunQuery> beforeList;
    /** How many listing queries were made. */
    final AtomicInteger lists = new AtomicInteger();

    KeysetPagingStore(SnapshotStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public RunPage list(RunQuery q) {
        lists.incrementAndGet();
        Consumer<RunQuery> hook = beforeList;
        if (hook != null) hook.accept(q);
        RunQuery.After after = q.after();
        if (after == null) return delegate.list(q);
        RunPage all = delegate.list(new RunQuery(q.agentId(), q.status(), q.threadId(), q.resourceId(), q.createdFrom(),
                q.createdTo(), q.now(), 0, null, null, q.withPayload()));
        List<RunSnapshot> items = all.items().stream().filter(after::precedes)
                .limit(q.limit() == null ? Long.MAX_VALUE : q.limit()).toList();
        return new RunPage(items, all.total());
    }

    @Override public boolean insert(RunSnapshot s) { return delegate.insert(s); }

    @Override public Optional<RunSnapshot> find(String runId) { return delegate.find(runId); }

    @Override public boolean compareAndSet(long v, RunSnapshot s) { return delegate.compareAndSet(v, s); }

    @Override public boolean delete(String runId, long v) { return delegate.delete(runId, v); }

    @Override public List<RunSnapshot> listDue(String agentId, Instant now, int limit) { return delegate.listDue(agentId, now, limit); }

    @Override public Optional<MemoryStore> memory() { return delegate.memory(); }

    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return delegate.renewLease(runId, expectedVersion, owner, newExpiry);
    }

    @Override public Instant now() { return delegate.now(); }

    @Override public Set<StoreCapability> capabilities() { return delegate.capabilities(); }

    @Override public String describe() { return delegate.describe(); }

    @Override public void close() { delegate.close(); }
}
