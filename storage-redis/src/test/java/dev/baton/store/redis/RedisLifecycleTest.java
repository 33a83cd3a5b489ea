package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The LifecycleContract over Redis. */
class RedisLifecycleTest extends LifecycleContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisLifecycleTest.class);

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
