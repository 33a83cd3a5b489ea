package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;

/** The thread-memory TCK on PostgreSQL, opened by URL through the provider. */
@DatabaseLane("PostgreSQL")
class PostgresMemoryStoreTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
