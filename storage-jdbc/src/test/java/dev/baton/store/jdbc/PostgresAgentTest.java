package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.AgentContract;

/** The agent-level TCK (approve, decline, resume, subagents, the resume race, leases) over Postgres. */
@DatabaseLane(value = "PostgreSQL", part = "agents")
class PostgresAgentTest extends AgentContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
