package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;

/** The storage TCK again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientSnapshotStoreTest extends SnapshotStoreContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientSnapshotStoreTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        return Optional.of(CLIENT.faults());
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
