package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.RecoveryContract;
import org.junit.jupiter.api.AfterAll;

/** The recovery TCK over Redis. */
class RedisRecoveryTest extends RecoveryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
