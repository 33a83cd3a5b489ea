package dev.baton.examples.stores;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import dev.baton.store.jdbc.SchemaMode;
import java.util.Map;

/**
 * PostgreSQL (module {@code baton-storage-jdbc}). Needs a running server:
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.PostgresExample jdbc:postgresql://127.0.0.1:5432/test}.
 */
public final class PostgresExample {
    private PostgresExample() {
    }

    public static void main(String[] args) {
        String url = ApprovalRoundTrip.url(args, "BATON_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test");

        // 1. By URL: Baton opens (and on close() closes) its own HikariCP pool; the table is created if missing.
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("user", "postgres", "table", "baton_runs"))) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On the application's own pool: Baton never closes it. VALIDATE: the schema is yours (Flyway, Liquibase),
        //    Baton only checks it at start; print the DDL with JdbcSnapshotStore.ddl(JdbcDialect.POSTGRESQL, "baton_runs").
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername("postgres");
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            try (SnapshotStore store = JdbcSnapshotStore.builder(dataSource).schemaMode(SchemaMode.VALIDATE).build()) {
                ApprovalRoundTrip.run(store);
            }
            // the pool is still open here, for the rest of the application
        }
    }
}
