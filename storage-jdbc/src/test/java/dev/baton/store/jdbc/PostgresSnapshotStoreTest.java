package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;

/** The storage TCK on Postgres, opened by URL through the provider (a HikariCP pool per store). */
class PostgresSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
