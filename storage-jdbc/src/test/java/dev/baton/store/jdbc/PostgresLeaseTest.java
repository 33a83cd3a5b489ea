package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease TCK on Postgres, opened by URL through the provider. */
@DatabaseLane("PostgreSQL")
class PostgresLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
