package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.AgentContract;
import org.junit.jupiter.api.AfterAll;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases) over Redis. */
class RedisAgentTest extends AgentContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisAgentTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
