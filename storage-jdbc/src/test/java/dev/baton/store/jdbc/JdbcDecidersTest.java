package dev.baton.store.jdbc;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The deciders filter ({@link DecidersCheck}) on every database, each opened by URL through the provider. */
class JdbcDecidersTest {
    static java.util.stream.Stream<String> databases() {
        return TestDatabases.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void decidersFilter(String database) {
        try (SnapshotStore store = SnapshotStores.open(TestDatabases.url(database))) {
            new DecidersCheck(store).all();
        }
    }
}
