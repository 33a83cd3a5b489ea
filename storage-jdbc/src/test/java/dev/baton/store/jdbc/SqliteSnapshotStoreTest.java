package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;

/** The storage TCK on Sqlite, opened by URL through the provider (a HikariCP pool per store). */
@DatabaseLane("SQLite")
class SqliteSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
