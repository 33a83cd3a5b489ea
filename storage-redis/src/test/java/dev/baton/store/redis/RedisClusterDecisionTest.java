package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.DecisionContract;

/**
 * The DecisionContract on a three-node Redis Cluster, on the shared Cluster client ({@link RedisTestClients}): every
 * script must touch one hash slot only, or the cluster answers CROSSSLOT / non-local key errors.
 */
class RedisClusterDecisionTest extends DecisionContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
