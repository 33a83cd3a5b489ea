package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.SnapshotStoreContract;
import org.h2.jdbcx.JdbcDataSource;

/** The storage TCK on H2 through {@link JdbcSnapshotStore#builder(javax.sql.DataSource)}: no pool, a plain DataSource. */
@DatabaseLane("H2")
class H2DataSourceSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        JdbcDataSource ds = new JdbcDataSource();
        // without a pool every call opens a connection: keep the database open between them
        ds.setURL(TestDatabases.h2Url() + ";LOCK_TIMEOUT=10000;DB_CLOSE_DELAY=10");
        return JdbcSnapshotStore.builder(ds).table("baton_runs_ds").build();
    }
}
