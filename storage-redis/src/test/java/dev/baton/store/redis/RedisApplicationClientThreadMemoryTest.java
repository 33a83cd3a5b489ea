package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryStoreContract;
import org.junit.jupiter.api.AfterAll;

/** The MemoryStoreContract again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientThreadMemoryTest extends MemoryStoreContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientThreadMemoryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
