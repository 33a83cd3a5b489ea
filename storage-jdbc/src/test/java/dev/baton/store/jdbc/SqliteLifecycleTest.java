package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;

/** The lifecycle TCK (cancel, expiry, keyset paging) over Sqlite. */
@DatabaseLane("SQLite")
class SqliteLifecycleTest extends LifecycleContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
