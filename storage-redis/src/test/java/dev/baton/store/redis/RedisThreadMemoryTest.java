package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The MemoryStoreContract on Redis, through {@code SnapshotStores.open} and the provider. */
class RedisThreadMemoryTest extends MemoryStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisThreadMemoryTest.class);

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }
}
