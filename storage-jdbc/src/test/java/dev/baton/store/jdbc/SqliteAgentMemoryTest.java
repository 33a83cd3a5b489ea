package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryContract;

/** The agent-level thread-memory TCK over Sqlite. */
@DatabaseLane("SQLite")
class SqliteAgentMemoryTest extends MemoryContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
