package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.RecoveryContract;

/**
 * The recovery TCK (a crash before and after each write, decisions included) on a three-node Redis Cluster in the bucketed layout, six buckets per agent ({@code buckets=6}): every
 * script must still touch one hash slot only, and the listings merged across buckets must keep the contract.
 */
class RedisClusterBucketsRecoveryTest extends RecoveryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterBucketsRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 6);
    }
}
