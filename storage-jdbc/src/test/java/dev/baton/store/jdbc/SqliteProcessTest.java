package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/** The cross-process TCK on one SQLite file written by several JVMs (WAL, busy_timeout). */
class SqliteProcessTest extends ProcessContract {
    @Override
    protected String storeUrl() {
        return TestDatabases.sqliteUrl();
    }
}
