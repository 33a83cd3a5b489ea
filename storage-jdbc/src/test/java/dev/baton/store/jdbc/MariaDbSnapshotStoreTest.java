package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import java.util.Optional;

/** The storage TCK on MariaDB, opened by URL through the provider (a HikariCP pool per store); faults through a TCP proxy. */
@DatabaseLane("MariaDB")
class MariaDbSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(TestDatabases.mariadbUrl());
    }

    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        return Optional.of(TestDatabases.faults(TestDatabases.mariadbUrl()));
    }
}
