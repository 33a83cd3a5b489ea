package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The recovery TCK over Redis. */
class RedisRecoveryTest extends RecoveryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
