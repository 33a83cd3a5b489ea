package dev.baton.spring;

import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
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

/** A store that counts the listings it answers, around another store. */
final class CountingStore implements SnapshotStore {
    final SnapshotStore delegate;
    final AtomicInteger lists = new AtomicInteger();

    CountingStore(SnapshotStore delegate) {
        this.delegate = delegate;
    }

    @Override public boolean insert(RunSnapshot snapshot) { return delegate.insert(snapshot); }
    @Override public Optional<RunSnapshot> find(String runId) { return delegate.find(runId); }
    @Override public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) { return delegate.compareAndSet(expectedVersion, replacement); }
    @Override public boolean delete(String runId, long expectedVersion) { return delegate.delete(runId, expectedVersion); }
    @Override public boolean renewLease(String runId, long v, String owner, Instant expiry) { return delegate.renewLease(runId, v, owner, expiry); }
    @Override public Instant now() { return delegate.now(); }
    @Override public List<RunSnapshot> listDue(String agentId, Instant now, int limit) { return delegate.listDue(agentId, now, limit); }
    @Override public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        return delegate.listNotificationsDue(agentId, now, limit);
    }
    @Override public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, Instant notifyAt,
            String notifyState) {
        return delegate.updateNotification(runId, expectedVersion, expectedNotifyAt, notifyAt, notifyState);
    }
    @Override public Set<StoreCapability> capabilities() { return delegate.capabilities(); }
    @Override public Set<QueryFeature> queryFeatures() { return delegate.queryFeatures(); }
    @Override public void close() { delegate.close(); }
    // the decisions, forwarded with the capability
    @Override public boolean compareAndSet(long v, RunSnapshot s, List<DecisionRecord> d) { return delegate.compareAndSet(v, s, d); }
    @Override public boolean delete(String runId, long v, List<DecisionRecord> d) { return delegate.delete(runId, v, d); }
    @Override public DecisionPage listDecisions(DecisionQuery q) { return delegate.listDecisions(q); }
    @Override public Optional<DecisionRecord> findDecision(String agentId, String key) { return delegate.findDecision(agentId, key); }
    @Override public int purgeDecisions(String agentId, Instant olderThan, int limit) { return delegate.purgeDecisions(agentId, olderThan, limit); }

    @Override
    public RunPage list(RunQuery query) {
        lists.incrementAndGet();
        return delegate.list(query);
    }
}
