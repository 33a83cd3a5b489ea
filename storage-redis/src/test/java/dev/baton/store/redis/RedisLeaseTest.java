package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;

/** The lease TCK on Redis, on the shared client ({@link RedisTestClients}). */
class RedisLeaseTest extends LeaseContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisLeaseTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }
}
