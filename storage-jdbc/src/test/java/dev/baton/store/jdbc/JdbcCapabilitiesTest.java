package dev.baton.store.jdbc;

import static dev.baton.store.StoreCapability.DURABLE;
import static dev.baton.store.StoreCapability.NOTIFICATIONS;
import static dev.baton.store.StoreCapability.SHARED;
import static dev.baton.store.StoreCapability.STORE_CLOCK;
import static dev.baton.store.StoreCapability.THREAD_MEMORY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** What each JDBC store declares: always the store clock; shared and durable as its database is. */
class JdbcCapabilitiesTest {

    private static Set<StoreCapability> of(String csv) {
        if (csv == null || csv.isBlank()) return Set.of();
        return java.util.Arrays.stream(csv.split("\\+")).map(StoreCapability::valueOf)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "POSTGRESQL | jdbc:postgresql://db/app            | SHARED+DURABLE",
            "MYSQL      | jdbc:mariadb://db/app               | SHARED+DURABLE",
            "H2         | jdbc:h2:mem:x                       | ",
            "H2         | jdbc:h2:mem:                        | ",
            "H2         | jdbc:h2:file:/data/baton            | DURABLE",
            "H2         | jdbc:h2:~/baton;AUTO_SERVER=TRUE    | SHARED+DURABLE",
            "H2         | jdbc:h2:tcp://db/~/baton            | SHARED+DURABLE",
            "SQLITE     | jdbc:sqlite:/data/baton.db          | SHARED+DURABLE",
            "SQLITE     | jdbc:sqlite::memory:                | ",
            "SQLITE     | jdbc:sqlite:                        | ",
            "SQLITE     | jdbc:sqlite:file::memory:?cache=shared | ",
            "SQLITE     | jdbc:sqlite:file:x.db?mode=memory   | ",
    })
    void sharedAndDurableFollowTheDatabaseAndItsUrl(JdbcDialect dialect, String url, String expected) {
        assertThat(JdbcBootstrap.capabilitiesOf(dialect, url)).isEqualTo(of(expected));
    }

    static java.util.stream.Stream<String> servers() {
        return java.util.stream.Stream.of("PostgreSQL", "MariaDB", "SQLite");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aServerOrAFileDatabaseIsSharedDurableAndHasAClockAndMemory(String name) {
        try (SnapshotStore store = SnapshotStores.open(TestDatabases.url(name))) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(SHARED, DURABLE, STORE_CLOCK, THREAD_MEMORY, NOTIFICATIONS);
        }
    }

    @Test
    void anH2FileWithoutAutoServerIsDurableButNotShared() {
        try (SnapshotStore store = SnapshotStores.open(TestDatabases.h2Url())) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(DURABLE, STORE_CLOCK, THREAD_MEMORY, NOTIFICATIONS);
        }
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(TestDatabases.h2Url() + ";DB_CLOSE_DELAY=10");
        try (SnapshotStore store = JdbcSnapshotStore.builder(ds).table("baton_runs_ds").build()) {
            assertThat(store.capabilities()).as("read from the DataSource's connection").containsExactlyInAnyOrder(DURABLE, STORE_CLOCK, THREAD_MEMORY, NOTIFICATIONS);
        }
    }

    @Test
    void anInMemoryDatabaseIsNeitherSharedNorDurableButHasAClockAndMemory() {
        for (String url : new String[] {"jdbc:h2:mem:baton-capabilities;DB_CLOSE_DELAY=-1", "jdbc:sqlite::memory:"}) {
            try (SnapshotStore store = SnapshotStores.open(url, java.util.Map.of("poolSize", "1"))) {
                assertThat(store.capabilities()).as(url).containsExactlyInAnyOrder(STORE_CLOCK, THREAD_MEMORY, NOTIFICATIONS);
                Instant before = Instant.now();
                assertThat(store.now()).as("clock of %s", url)
                        .isBetween(before.minus(Duration.ofSeconds(5)), Instant.now().plus(Duration.ofSeconds(5)));
            }
        }
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:baton-capabilities-ds;DB_CLOSE_DELAY=-1");
        try (SnapshotStore store = JdbcSnapshotStore.builder(ds).build()) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(STORE_CLOCK, THREAD_MEMORY, NOTIFICATIONS);
        }
    }
}
