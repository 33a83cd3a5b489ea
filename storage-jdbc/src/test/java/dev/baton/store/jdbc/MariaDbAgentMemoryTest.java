package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryContract;

/** The agent-level thread-memory TCK over MariaDb. */
@DatabaseLane("MariaDB")
class MariaDbAgentMemoryTest extends MemoryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }
}
