package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The decision records checked directly against the reference over Redis: every record written by the script that changes its run, in the agent's key space. */
class RedisDecisionRecordsTest extends DecisionStoreChecks {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisDecisionRecordsTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
