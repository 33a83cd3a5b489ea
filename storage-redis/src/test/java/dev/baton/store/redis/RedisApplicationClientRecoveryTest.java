package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.RecoveryContract;
import org.junit.jupiter.api.AfterAll;

/** The recovery TCK (a crash before and after each write, decisions included) on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientRecoveryTest extends RecoveryContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientRecoveryTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
