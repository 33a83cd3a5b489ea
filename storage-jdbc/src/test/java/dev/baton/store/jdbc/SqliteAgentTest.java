package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.AgentContract;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases) over Sqlite. */
@DatabaseLane("SQLite")
class SqliteAgentTest extends AgentContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.sqliteUrl());
    }
}
