package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease TCK on the Mongo store opened by URL through {@link SnapshotStores}; the server: see {@link MongoTestServer}. */
class MongoLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
