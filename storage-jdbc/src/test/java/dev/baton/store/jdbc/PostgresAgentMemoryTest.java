package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryContract;

/** The agent-level thread-memory TCK over Postgres. */
@DatabaseLane(value = "PostgreSQL", part = "agents")
class PostgresAgentMemoryTest extends MemoryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
