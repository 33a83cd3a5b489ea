package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The MemoryContract over Redis. */
class RedisAgentMemoryTest extends MemoryContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisAgentMemoryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
