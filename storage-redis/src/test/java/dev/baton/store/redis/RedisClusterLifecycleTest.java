package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LifecycleContract;

/**
 * The LifecycleContract (notifications included) on a three-node Redis Cluster, on the shared Cluster
 * client ({@link RedisTestClients}): the notification set of an agent shares the agent's hash slot, so every script
 * touches one slot only.
 */
class RedisClusterLifecycleTest extends LifecycleContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterLifecycleTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
