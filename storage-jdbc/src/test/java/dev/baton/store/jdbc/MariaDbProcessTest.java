package dev.baton.store.jdbc;

import dev.baton.tck.ProcessContract;

/** The cross-process TCK: separate JVMs race on and are killed around runs stored in MariaDb. */
class MariaDbProcessTest extends ProcessContract {
    // scenariosAtOnce() stays false: with the scenarios at once (a load of 35 on 2 cores), the SIGTERM scenario
    // once found its run "not stored" after the hand-back (two other runs passed); one at a time it passes

    @Override
    protected String storeUrl() {
        return TestDatabases.mariadbUrl();
    }
}
