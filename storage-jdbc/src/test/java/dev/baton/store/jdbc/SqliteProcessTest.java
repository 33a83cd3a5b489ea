package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/** The cross-process TCK on one SQLite file written by several JVMs (WAL, busy_timeout). */
class SqliteProcessTest extends ProcessContract {
    // scenariosAtOnce() stays false: with the seven scenarios at once (a load of 30 on 2 cores), every first
    // worker opened the file and then gave no "ready" within 60 s; one at a time they pass

    @Override
    protected String storeUrl() {
        return TestDatabases.sqliteUrl();
    }
}
