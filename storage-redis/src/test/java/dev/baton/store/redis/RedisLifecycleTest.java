package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LifecycleContract;
import org.junit.jupiter.api.AfterAll;

/** The LifecycleContract over Redis. */
class RedisLifecycleTest extends LifecycleContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisLifecycleTest.class);

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
}
