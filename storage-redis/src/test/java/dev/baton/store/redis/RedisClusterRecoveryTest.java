package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;
import java.util.Map;

/** The recovery TCK (a crash before and after each write, decisions included) on a three-node Redis Cluster, through the provider's {@code cluster=true}. */
class RedisClusterRecoveryTest extends RecoveryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestCluster.url(), Map.of("keyPrefix", PREFIX, "cluster", "true"));
    }
}
