package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryContract;

/** The agent-level thread-memory TCK over H2. */
@DatabaseLane("H2")
class H2AgentMemoryTest extends MemoryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.h2Url());
    }
}
