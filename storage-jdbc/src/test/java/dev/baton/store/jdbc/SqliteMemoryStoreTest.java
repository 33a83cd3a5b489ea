package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;

/** The thread-memory TCK on SQLite, opened by URL through the provider. */
@DatabaseLane("SQLite")
class SqliteMemoryStoreTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
