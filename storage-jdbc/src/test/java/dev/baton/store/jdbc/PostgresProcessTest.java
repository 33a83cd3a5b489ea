package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/** The cross-process TCK: separate JVMs race on and are killed around runs stored in Postgres. */
class PostgresProcessTest extends ProcessContract {
    /** The scenarios run at the same time: each has its own agent, and every write is on the server when it returns. */
    @Override
    protected boolean scenariosAtOnce() {
        return true;
    }

    @Override
    protected String storeUrl() {
        return TestDatabases.postgresUrl();
    }
}
