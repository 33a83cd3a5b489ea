package dev.baton.store.jdbc;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import dev.baton.store.SnapshotStores;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provider: found by ServiceLoader, its URLs, its properties. */
class ProviderTest {
    private final JdbcSnapshotStoreProvider provider = new JdbcSnapshotStoreProvider();

    @Test
    void isFoundByTheServiceLoader() {
        assertThat(SnapshotStores.providers()).extracting(SnapshotStoreProvider::name).contains("jdbc");
    }

    @Test
    void acceptsTheFiveJdbcSchemesAndNothingElse() {
        for (String url : new String[] {"jdbc:postgresql://db/app", "jdbc:mysql://db/app", "jdbc:mariadb://db/app",
                "jdbc:h2:mem:x", "jdbc:sqlite:app.db", "JDBC:PostgreSQL://db/app"}) {
            assertThat(provider.accepts(url)).as(url).isTrue();
        }
        for (String url : new String[] {"jdbc:oracle:thin:@db", "memory:", "redis://db", "postgresql://db", "jdbc:"}) {
            assertThat(provider.accepts(url)).as(url).isFalse();
        }
    }

    @Test
    void unknownOrBadPropertiesAreRejectedByName() {
        String url = TestDatabases.h2Url();
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("tabel", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tabel");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("schemaMode", "drop")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schemaMode");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("poolSize", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize");
    }

    @Test
    void aMysqlSchemeUrlOpensThroughTheMariaDbDriver() {
        String url = TestDatabases.mariadbUrl().replaceFirst("^jdbc:mariadb:", "jdbc:mysql:");
        try (SnapshotStore store = SnapshotStores.open(url)) {
            RunSnapshot s = suspended(uniqueId("mysql-agent"), uniqueId("run"), "t", "r", 0);
            assertThat(store.insert(s)).isTrue();
            assertThat(store.find(s.runId())).contains(s);
            assertThat(store.describe()).startsWith("MySQL/MariaDB jdbc:mysql:");
        }
    }

    @Test
    void describeNamesTheDatabaseAndHidesThePassword() {
        // the test servers trust every password
        String url = TestDatabases.postgresUrl();
        url += (url.contains("?") ? "&" : "?") + "password=secret";
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", "baton_runs"))) {
            assertThat(store.describe()).startsWith("PostgreSQL jdbc:postgresql:").doesNotContain("secret");
        }
        try (SnapshotStore store = SnapshotStores.open(TestDatabases.h2Url(), Map.of("table", "baton_other"))) {
            assertThat(store.describe()).startsWith("H2 jdbc:h2:file:").endsWith("(table baton_other)");
        }
    }

    @Test
    void idsLongerThanTheColumnsAreRefusedBeforeTheDatabaseCouldTruncateThem() {
        try (SnapshotStore store = SnapshotStores.open(TestDatabases.h2Url())) {
            String longId = "x".repeat(256);
            assertThatThrownBy(() -> store.insert(suspended("a", longId, null, null, 0)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
            assertThat(store.find(longId)).isEmpty();
            assertThat(store.delete(longId, 1)).isFalse();
        }
    }
}
