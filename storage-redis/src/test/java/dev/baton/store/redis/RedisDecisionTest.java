package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The DecisionContract over Redis: every record written by the script that changes its run, in the agent's key space. */
class RedisDecisionTest extends DecisionContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisDecisionTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
