package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;

/** The LifecycleContract over the Mongo store opened by URL; the server: see {@link MongoTestServer}. */
class MongoLifecycleTest extends LifecycleContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
