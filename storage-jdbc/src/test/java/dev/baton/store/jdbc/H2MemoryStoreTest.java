package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;

/** The thread-memory TCK on H2, opened by URL through the provider. */
@DatabaseLane("H2")
class H2MemoryStoreTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
