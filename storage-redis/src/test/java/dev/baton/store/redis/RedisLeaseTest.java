package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;
import java.util.Map;

/** The lease TCK on Redis, through {@code SnapshotStores.open} and the provider. */
class RedisLeaseTest extends LeaseContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisLeaseTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }
}
