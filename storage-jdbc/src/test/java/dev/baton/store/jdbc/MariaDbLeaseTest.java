package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease TCK on MariaDb, opened by URL through the provider. */
@DatabaseLane("MariaDB")
class MariaDbLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }
}
