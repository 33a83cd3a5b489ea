package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;

/** The recovery TCK over the Mongo store opened by URL; the server: see {@link MongoTestServer}. */
class MongoRecoveryTest extends RecoveryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
