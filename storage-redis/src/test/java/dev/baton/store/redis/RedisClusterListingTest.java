package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.ListingContract;

/**
 * The ListingContract on a three-node Redis Cluster, on the shared Cluster client ({@link RedisTestClients}): every
 * script must touch one hash slot only, or the cluster answers CROSSSLOT / non-local key errors.
 */
class RedisClusterListingTest extends ListingContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterListingTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
