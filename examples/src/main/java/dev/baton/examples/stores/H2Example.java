package dev.baton.examples.stores;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import org.h2.jdbcx.JdbcDataSource;

/**
 * H2, embedded (module {@code baton-storage-jdbc}): a file database, no server. {@code AUTO_SERVER=TRUE}
 * lets several processes open the same file, as the approval inbox does.
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.H2Example}
 */
public final class H2Example {
    private H2Example() {
    }

    public static void main(String[] args) {
        String url = ApprovalRoundTrip.url(args, "BATON_EXAMPLE_H2_URL", "jdbc:h2:file:./data/h2-example;AUTO_SERVER=TRUE");

        // 1. By URL.
        try (SnapshotStore store = SnapshotStores.open(url)) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On the application's DataSource: Baton never closes it.
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        try (SnapshotStore store = JdbcSnapshotStore.builder(dataSource).build()) {
            ApprovalRoundTrip.run(store);
        }
    }
}
