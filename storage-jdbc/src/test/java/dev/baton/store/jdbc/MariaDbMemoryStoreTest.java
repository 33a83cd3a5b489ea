package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;

/** The thread-memory TCK on MariaDB, opened by URL through the provider. */
@DatabaseLane("MariaDB")
class MariaDbMemoryStoreTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }
}
