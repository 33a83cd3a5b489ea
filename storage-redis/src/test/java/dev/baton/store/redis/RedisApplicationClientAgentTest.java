package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.AgentContract;
import org.junit.jupiter.api.AfterAll;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases, decisions) on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientAgentTest extends AgentContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientAgentTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
