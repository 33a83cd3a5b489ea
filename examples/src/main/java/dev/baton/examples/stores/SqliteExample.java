package dev.baton.examples.stores;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite (module {@code baton-storage-jdbc}): one file, no server. Opened by URL, the store uses WAL and a
 * busy timeout so that several processes can share the file.
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.SqliteExample}
 */
public final class SqliteExample {
    private SqliteExample() {
    }

    public static void main(String[] args) {
        String url = ApprovalRoundTrip.url(args, "BATON_EXAMPLE_SQLITE_URL", "jdbc:sqlite:./data/sqlite-example.db");
        new java.io.File("data").mkdirs();   // SQLite creates the file, not its folder

        // 1. By URL.
        try (SnapshotStore store = SnapshotStores.open(url)) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On the application's DataSource: Baton never closes it. Set WAL and a busy timeout yourself.
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setBusyTimeout(10_000);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl(url);
        try (SnapshotStore store = JdbcSnapshotStore.builder(dataSource).build()) {
            ApprovalRoundTrip.run(store);
        }
    }
}
