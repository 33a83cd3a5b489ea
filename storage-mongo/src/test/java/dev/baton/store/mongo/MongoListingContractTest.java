package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.ListingContract;

/** The listing TCK (summaries, deadlines, payload-free listings, cursors, due runs) on a Mongo store in a database of its own, on the client such tests share (see {@link MongoTestServer#sharedClientStore}). */
class MongoListingContractTest extends ListingContract {
    @Override
    protected SnapshotStore openStore() {
        return MongoTestServer.sharedClientStore(getClass(), MongoSnapshotStore.DEFAULT_COLLECTION, 1);
    }
}
