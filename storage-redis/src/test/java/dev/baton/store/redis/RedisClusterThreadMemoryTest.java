package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryStoreContract;

/**
 * The MemoryStoreContract on a three-node Redis Cluster, on the shared Cluster client ({@link RedisTestClients}): every
 * script must touch one hash slot only, or the cluster answers CROSSSLOT / non-local key errors.
 */
class RedisClusterThreadMemoryTest extends MemoryStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterThreadMemoryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
