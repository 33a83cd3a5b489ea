package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.SnapshotStoreContract;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The storage TCK on H2 through {@link JdbcSnapshotStore#builder(javax.sql.DataSource)}: no pool, a plain DataSource, so
 * a connection of its own for every call. The configuration's one suite: the lease, listing and memory-store contracts
 * run on H2 through the provider only ({@code H2LeaseTest}, {@code H2ListingTest}, {@code H2MemoryStoreTest}). Their
 * statements, dialect and connection handling ({@code JdbcAccess}: a connection per call, borrowed from the
 * {@code DataSource} the store knows, autocommit on) are the same in both configurations; what differs is where the
 * connections come from and that the store reads its URL from the connection, which this suite covers.
 */
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
