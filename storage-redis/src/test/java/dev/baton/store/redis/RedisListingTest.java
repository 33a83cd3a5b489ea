package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.ListingContract;
import org.junit.jupiter.api.AfterAll;

/** The ListingContract on Redis, on the shared client ({@link RedisTestClients}). */
class RedisListingTest extends ListingContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisListingTest.class);

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 1);
    }
}
