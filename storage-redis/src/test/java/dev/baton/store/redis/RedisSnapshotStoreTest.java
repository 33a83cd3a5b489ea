package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import java.util.Map;

/** The storage TCK on Redis, through {@code SnapshotStores.open} and the provider. */
class RedisSnapshotStoreTest extends SnapshotStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisSnapshotStoreTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }
}
