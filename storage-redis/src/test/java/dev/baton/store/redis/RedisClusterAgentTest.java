package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.AgentContract;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases, decisions) on a three-node Redis Cluster, on the shared Cluster client ({@link RedisTestClients}). */
class RedisClusterAgentTest extends AgentContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisClusterAgentTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.cluster(PREFIX, 1);
    }
}
