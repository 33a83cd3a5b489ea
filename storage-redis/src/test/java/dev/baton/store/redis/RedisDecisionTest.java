package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.DecisionContract;
import org.junit.jupiter.api.AfterAll;

/** The DecisionContract over Redis: every record written by the script that changes its run, in the agent's key space. */
class RedisDecisionTest extends DecisionContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
