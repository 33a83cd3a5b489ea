package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryStoreContract;
import org.junit.jupiter.api.AfterAll;

/** The MemoryStoreContract on Redis, on the shared client ({@link RedisTestClients}). */
class RedisThreadMemoryTest extends MemoryStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisThreadMemoryTest.class);

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }
}
