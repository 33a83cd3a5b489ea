package dev.baton.store.jdbc;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.store.RunSnapshot;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/** Stores built on the application's own DataSource or Jdbi never close it. */
class UserOwnedClientTest {

    @Test
    void aUsersDataSourceStaysOpenAfterTheStoreCloses() {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(TestDatabases.postgresUrl());
        try (HikariDataSource ds = new HikariDataSource(c)) {
            RunSnapshot s = suspended(uniqueId("owned-agent"), uniqueId("run"), "t", "r", 0);
            try (JdbcSnapshotStore store = JdbcSnapshotStore.builder(ds).build()) {
                assertThat(store.dialect()).isEqualTo(JdbcDialect.POSTGRESQL);
                assertThat(store.insert(s)).isTrue();
            }
            assertThat(ds.isClosed()).isFalse();
            try (JdbcSnapshotStore again = JdbcSnapshotStore.builder(ds).schemaMode(SchemaMode.VALIDATE).build()) {
                assertThat(again.find(s.runId())).contains(s);
            }
            assertThat(ds.isClosed()).isFalse();
        }
    }

    @Test
    void aUsersJdbiWorksAndItsDialectIsDetected() {
        Jdbi jdbi = Jdbi.create(TestDatabases.sqliteUrl());
        try (JdbcSnapshotStore store = JdbcSnapshotStore.builder(jdbi).table("baton_user_jdbi").build()) {
            assertThat(store.dialect()).isEqualTo(JdbcDialect.SQLITE);
            assertThat(store.table()).isEqualTo("baton_user_jdbi");
            RunSnapshot s = suspended(uniqueId("owned-agent"), uniqueId("run"), null, "r", 0);
            assertThat(store.insert(s)).isTrue();
            assertThat(store.find(s.runId())).contains(s);
        }
        // the Jdbi still works after the store closed
        int one = jdbi.withHandle(h -> h.createQuery("SELECT 1").mapTo(Integer.class).one());
        assertThat(one).isEqualTo(1);
    }
}
