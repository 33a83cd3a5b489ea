package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;

/** The lifecycle TCK (cancel, expiry, keyset paging) over Postgres. */
@DatabaseLane("PostgreSQL")
class PostgresLifecycleTest extends LifecycleContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
