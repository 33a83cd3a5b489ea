package dev.baton.store.jdbc;

import static dev.baton.store.StoreCapability.DURABLE;
import static dev.baton.store.StoreCapability.SHARED;
import static dev.baton.store.StoreCapability.STORE_CLOCK;
import static dev.baton.store.StoreCapability.THREAD_MEMORY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreCapability;
import java.util.Set;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a JDBC store declares: shared and durable on a server or a file several processes may open; less in memory. */
class CapabilitiesTest {

    static Stream<Arguments> urls() {
        return Stream.of(
                Arguments.of(JdbcDialect.POSTGRESQL, "jdbc:postgresql://db/app", Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.MYSQL, "jdbc:mariadb://db/app", Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.POSTGRESQL, null, Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:mem:test", Set.of()),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:mem:", Set.of()),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:file:./data/baton", Set.of(DURABLE)),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:./data/baton", Set.of(DURABLE)),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:file:./data/baton;AUTO_SERVER=TRUE", Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.H2, "jdbc:h2:tcp://db/baton", Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.H2, null, Set.of()),
                Arguments.of(JdbcDialect.SQLITE, "jdbc:sqlite:./data/baton.db", Set.of(SHARED, DURABLE)),
                Arguments.of(JdbcDialect.SQLITE, "jdbc:sqlite::memory:", Set.of()),
                Arguments.of(JdbcDialect.SQLITE, "jdbc:sqlite:", Set.of()),
                Arguments.of(JdbcDialect.SQLITE, "jdbc:sqlite:file:x?mode=memory&cache=shared", Set.of()));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("urls")
    void capabilitiesFollowTheDatabaseAndTheUrl(JdbcDialect dialect, String url, Set<StoreCapability> expected) {
        assertThat(JdbcSnapshotStore.capabilitiesOf(dialect, url)).isEqualTo(expected);
    }

    @Test
    void anInMemoryH2StoreOpenedByUrlIsNeitherSharedNorDurable() {
        try (SnapshotStore store = SnapshotStores.open("jdbc:h2:mem:capabilities;DB_CLOSE_DELAY=-1")) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(STORE_CLOCK, THREAD_MEMORY);   // what every JDBC store has
        }
    }

    @Test
    void aStoreBuiltOnADataSourceReadsItsUrlFromTheConnection() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:capabilities-ds;DB_CLOSE_DELAY=-1");
        try (SnapshotStore store = JdbcSnapshotStore.builder(ds).build()) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(STORE_CLOCK, THREAD_MEMORY);
        }
        ds.setURL("jdbc:h2:file:" + TestDatabases.dir("h2-capabilities").resolve("baton").toAbsolutePath());
        try (SnapshotStore store = JdbcSnapshotStore.builder(ds).build()) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(DURABLE, STORE_CLOCK, THREAD_MEMORY);
        }
    }
}
