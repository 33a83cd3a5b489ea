package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;
import org.junit.jupiter.api.AfterAll;

/** The lease TCK again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientLeaseTest extends LeaseContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientLeaseTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
