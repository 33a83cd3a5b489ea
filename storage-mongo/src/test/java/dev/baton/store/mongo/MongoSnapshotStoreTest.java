package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;

/** The whole storage TCK on the Mongo store opened by URL through {@link SnapshotStores}; the server: see {@link MongoTestServer}. */
class MongoSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
