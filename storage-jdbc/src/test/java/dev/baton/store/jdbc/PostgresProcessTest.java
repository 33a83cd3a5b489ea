package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/** The cross-process TCK: separate JVMs race on and are killed around runs stored in Postgres. */
class PostgresProcessTest extends ProcessContract {
    @Override
    protected String storeUrl() {
        return TestDatabases.postgresUrl();
    }
}
