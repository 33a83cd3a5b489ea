package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.ListingContract;

/** The listing TCK (summaries, deadlines, payload-free listings, cursors, due runs) on H2, opened by URL through the provider. */
@DatabaseLane("H2")
class H2ListingTest extends ListingContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
