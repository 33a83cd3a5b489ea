package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryContract;
import org.junit.jupiter.api.AfterAll;

/** The MemoryContract over Redis. */
class RedisAgentMemoryTest extends MemoryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisAgentMemoryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
