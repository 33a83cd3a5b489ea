package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;

/** The decision TCK (the audit trail) over Postgres. */
@DatabaseLane("PostgreSQL")
class PostgresDecisionTest extends DecisionContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.postgresUrl());
    }
}
