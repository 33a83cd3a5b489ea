package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.ListingContract;
import org.junit.jupiter.api.AfterAll;

/** The ListingContract again, on stores built from one application-owned {@link io.lettuce.core.RedisClient}. */
class RedisApplicationClientListingTest extends ListingContract {
    private static final ApplicationClient CLIENT = new ApplicationClient(RedisApplicationClientListingTest.class);

    @Override
    protected SnapshotStore openStore() {
        return CLIENT.open();
    }

    @AfterAll
    static void shutdownTheClient() {
        CLIENT.close();
    }
}
