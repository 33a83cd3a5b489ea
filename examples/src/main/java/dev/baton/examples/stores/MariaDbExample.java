package dev.baton.examples.stores;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import java.util.Map;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * MySQL / MariaDB (module {@code baton-storage-jdbc}, MariaDB Connector/J). Needs a running server:
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.MariaDbExample "jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable"}.
 */
public final class MariaDbExample {
    private MariaDbExample() {
    }

    public static void main(String[] args) throws Exception {
        String url = ApprovalRoundTrip.url(args, "BATON_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable");

        // 1. By URL (jdbc:mysql: works too): Baton pools the connections itself.
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("user", "root"))) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On a DataSource the application owns (here the driver's own, unpooled): Baton never closes it.
        MariaDbDataSource dataSource = new MariaDbDataSource(url);
        dataSource.setUser("root");
        try (SnapshotStore store = JdbcSnapshotStore.builder(dataSource).table("baton_runs").build()) {
            ApprovalRoundTrip.run(store);
        }
    }
}
