package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;

/** The decision TCK (the audit trail) over H2. */
@DatabaseLane("H2")
class H2DecisionTest extends DecisionContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
