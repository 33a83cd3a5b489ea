package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;

/** The storage TCK on MariaDb, opened by URL through the provider (a HikariCP pool per store). */
class MariaDbSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }
}
