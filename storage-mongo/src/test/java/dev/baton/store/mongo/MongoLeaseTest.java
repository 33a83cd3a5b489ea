package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;

/** The lease TCK on a Mongo store in a database of its own, on the client such tests share (see {@link MongoTestServer#sharedClientStore}); the server: see {@link MongoTestServer}. */
class MongoLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return MongoTestServer.sharedClientStore(getClass(), MongoSnapshotStore.DEFAULT_COLLECTION, 1);
    }
}
