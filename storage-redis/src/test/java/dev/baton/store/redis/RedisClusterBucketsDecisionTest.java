package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.DecisionContract;

/**
 * The DecisionContract on a three-node Redis Cluster in the bucketed layout, six buckets per agent ({@code buckets=6}): every
 * script must still touch one hash slot only, and the listings merged across buckets must keep the contract.
 */
class RedisClusterBucketsDecisionTest extends DecisionContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterBucketsDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 6);
    }
}
