package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.RecoveryContract;

/** The recovery TCK (a crash before and after each write, decisions included) on a three-node Redis Cluster, on the shared Cluster client ({@link RedisTestClients}). */
class RedisClusterRecoveryTest extends RecoveryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
