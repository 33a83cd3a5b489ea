package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LifecycleContract;

/** The LifecycleContract on a Mongo store in a database of its own, on the client such tests share (see {@link MongoTestServer#sharedClientStore}); the server: see {@link MongoTestServer}. */
class MongoLifecycleTest extends LifecycleContract {
    @Override
    protected SnapshotStore openStore() {
        return MongoTestServer.sharedClientStore(getClass(), MongoSnapshotStore.DEFAULT_COLLECTION, 1);
    }
}
