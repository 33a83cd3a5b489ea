package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;

/** The thread-memory TCK on the Mongo store opened by URL; the server: see {@link MongoTestServer}. */
class MongoThreadMemoryTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
