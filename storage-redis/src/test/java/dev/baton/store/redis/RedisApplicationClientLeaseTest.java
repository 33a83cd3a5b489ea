package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;

/** The lease TCK again, on stores built from one application-owned {@link RedisClient}. */
class RedisApplicationClientLeaseTest extends LeaseContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisApplicationClientLeaseTest.class);
    private static RedisClient client;

    @Override
    protected SnapshotStore openStore() {
        synchronized (RedisApplicationClientLeaseTest.class) {
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
