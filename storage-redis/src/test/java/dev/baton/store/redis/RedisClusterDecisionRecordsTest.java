package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;

import java.util.Map;

/**
 * The decision records checked directly against the reference on a three-node Redis Cluster, through the provider's {@code cluster=true}: every
 * script must touch one hash slot only, or the cluster answers CROSSSLOT / non-local key errors.
 */
class RedisClusterDecisionRecordsTest extends DecisionStoreChecks {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterDecisionRecordsTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestCluster.url(), Map.of("keyPrefix", PREFIX, "cluster", "true"));
    }
}
