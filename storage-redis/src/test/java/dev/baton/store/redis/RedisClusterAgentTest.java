package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.AgentContract;
import java.util.Map;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases, decisions) on a three-node Redis Cluster, through the provider's {@code cluster=true}. */
class RedisClusterAgentTest extends AgentContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterAgentTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestCluster.url(), Map.of("keyPrefix", PREFIX, "cluster", "true"));
    }
}
