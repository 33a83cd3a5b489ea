package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.ListingContract;

/** The listing TCK (summaries, deadlines, payload-free listings, cursors, due runs) on PostgreSQL, opened by URL through the provider. */
@DatabaseLane("PostgreSQL")
class PostgresListingTest extends ListingContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
