package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;

/** The recovery TCK (a crash at every write, slow store, clocks, dropped streams, interrupts, subagents) over H2. */
@DatabaseLane("H2")
class H2RecoveryTest extends RecoveryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
