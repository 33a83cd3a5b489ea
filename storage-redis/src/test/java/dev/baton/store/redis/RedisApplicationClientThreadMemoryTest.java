package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryStoreContract;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;

/** The MemoryStoreContract again, on stores built from one application-owned {@link RedisClient}. */
class RedisApplicationClientThreadMemoryTest extends MemoryStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisApplicationClientThreadMemoryTest.class);
    private static RedisClient client;

    @Override
    protected SnapshotStore openStore() {
        synchronized (RedisApplicationClientThreadMemoryTest.class) {
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
