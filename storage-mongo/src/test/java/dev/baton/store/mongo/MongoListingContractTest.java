package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.ListingContract;

/** The listing TCK (summaries, deadlines, payload-free listings, cursors, due runs) on the Mongo store opened by URL. */
class MongoListingContractTest extends ListingContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
