package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;
import java.util.Map;

/**
 * The LifecycleContract (notifications included) on a three-node Redis Cluster, through the provider's
 * {@code cluster=true}: the notification set of an agent shares the agent's hash slot, so every script
 * touches one slot only.
 */
class RedisClusterLifecycleTest extends LifecycleContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterLifecycleTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestCluster.url(), Map.of("keyPrefix", PREFIX, "cluster", "true"));
    }
}
