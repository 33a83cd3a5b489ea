package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease TCK on Sqlite, opened by URL through the provider. */
@DatabaseLane("SQLite")
class SqliteLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
