package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;
import java.util.Map;

/**
 * The DecisionContract on a three-node Redis Cluster, through the provider's {@code cluster=true}: every
 * script must touch one hash slot only, or the cluster answers CROSSSLOT / non-local key errors.
 */
class RedisClusterDecisionTest extends DecisionContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestCluster.url(), Map.of("keyPrefix", PREFIX, "cluster", "true"));
    }
}
