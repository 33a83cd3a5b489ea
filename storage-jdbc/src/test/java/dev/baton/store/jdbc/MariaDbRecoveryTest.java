package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;

/** The recovery TCK (a crash at every write, slow store, clocks, dropped streams, interrupts, subagents) over MariaDb. */
@DatabaseLane("MariaDB")
class MariaDbRecoveryTest extends RecoveryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }
}
