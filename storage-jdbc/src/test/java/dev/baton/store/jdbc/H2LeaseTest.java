package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease TCK on H2, opened by URL through the provider. */
@DatabaseLane("H2")
class H2LeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
