package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.ListingContract;
import org.junit.jupiter.api.AfterAll;

/**
 * The ListingContract on one Redis server in the bucketed layout, four buckets per agent ({@code buckets=4}): the
 * listings merged across buckets, the "waiting for me" label sets and the listing's temporary set in each bucket's slot,
 * without a cluster (the cluster runs it in six: {@link RedisClusterBucketsListingTest}).
 */
class RedisBucketsListingTest extends ListingContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisBucketsListingTest.class);

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return RedisTestClients.standalone(PREFIX, 4);
    }
}
