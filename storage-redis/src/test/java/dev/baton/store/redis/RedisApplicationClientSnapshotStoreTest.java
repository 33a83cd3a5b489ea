package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.SnapshotStoreContract;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;

/** The storage TCK again, on stores built from one application-owned {@link RedisClient}. */
class RedisApplicationClientSnapshotStoreTest extends SnapshotStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisApplicationClientSnapshotStoreTest.class);
    private static RedisClient client;

    @Override
    protected SnapshotStore openStore() {
        synchronized (RedisApplicationClientSnapshotStoreTest.class) {
            if (client == null) client = RedisClient.create(RedisTestServer.url());
        }
        return RedisSnapshotStore.builder(client).keyPrefix(PREFIX).build();
    }

    @AfterAll
    static void shutdownTheClient() {
        if (client != null) client.shutdown();
        RedisTestServer.deleteKeys(PREFIX);
    }
}
