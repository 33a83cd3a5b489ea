package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;

/** The lease TCK on a three-node Redis Cluster: the renewal script, too, must touch one hash slot only. */
class RedisClusterLeaseTest extends LeaseContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterLeaseTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
