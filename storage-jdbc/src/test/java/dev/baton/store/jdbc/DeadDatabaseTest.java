package dev.baton.store.jdbc;

import dev.baton.tck.support.TcpProxy;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.StorageException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A database that is not there, or goes away mid-use: a StorageException naming it, quickly, never a hang. */
class DeadDatabaseTest {
    private static final Map<String, String> SHORT = Map.of("connectTimeout", "2", "socketTimeout", "3", "queryTimeout", "3");

    static Stream<String> servers() {
        return Stream.of("PostgreSQL", "MariaDB");
    }

    /** The server's URL with its host and port replaced. */
    private static String via(String url, int port) {
        URI u = URI.create(url.substring("jdbc:".length()));
        return "jdbc:" + u.getScheme() + "://127.0.0.1:" + port + u.getRawPath() + (u.getRawQuery() != null ? "?" + u.getRawQuery() : "");
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String dbName(String server) {
        return server.equals("PostgreSQL") ? "PostgreSQL" : "MySQL/MariaDB";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void openingOnAClosedPortFailsFastNamingTheDatabase(String server) throws Exception {
        String url = via(TestDatabases.url(server), freePort());
        assertTimeoutPreemptively(Duration.ofSeconds(8), () ->
                assertThatThrownBy(() -> SnapshotStores.open(url, SHORT))
                        .isInstanceOf(StorageException.class)
                        .hasMessageStartingWith(dbName(server) + " jdbc:")
                        .hasMessageContaining("127.0.0.1:"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aServerThatDiesMidUseGivesAStorageExceptionNamingIt(String server) throws Exception {
        throughAProxy(server, "dead-agent", (proxy, store, s) -> {
            proxy.kill();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertThatThrownBy(() -> store.find(s.runId()))
                        .isInstanceOf(StorageException.class)
                        .hasMessageStartingWith(dbName(server) + " jdbc:")
                        .hasMessageContaining("find of run '" + s.runId() + "' failed");
                assertThatThrownBy(() -> store.list(RunQuery.forAgent(s.agentId(), Instant.now()).build()))
                        .isInstanceOf(StorageException.class).hasMessageContaining("list failed");
            });
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aServerThatStopsAnsweringTimesOutInsteadOfHanging(String server) throws Exception {
        throughAProxy(server, "hung-agent", (proxy, store, s) -> {
            proxy.freeze();
            assertTimeoutPreemptively(Duration.ofSeconds(15), () ->
                    assertThatThrownBy(() -> store.compareAndSet(1, s.claimed("me", Instant.now(), "{}")))
                            .isInstanceOf(StorageException.class)
                            .hasMessageStartingWith(dbName(server) + " jdbc:")
                            .hasMessageContaining("compare-and-set of run '" + s.runId() + "' failed"));
        });
    }

    /** A test's body, given the proxy, the store opened through it and the run inserted before. */
    @FunctionalInterface
    private interface ProxiedBody {
        void run(TcpProxy proxy, SnapshotStore store, RunSnapshot inserted) throws Exception;
    }

    /**
     * Opens a store on {@code server} through a {@link TcpProxy} (short timeouts), inserts a suspended run of a
     * fresh agent named after {@code agentPrefix} (checking it went in), then runs {@code body}; closes both after.
     */
    private static void throughAProxy(String server, String agentPrefix, ProxiedBody body) throws Exception {
        URI target = URI.create(TestDatabases.url(server).substring("jdbc:".length()));
        try (TcpProxy proxy = new TcpProxy(target.getHost(), target.getPort());
                SnapshotStore store = SnapshotStores.open(via(TestDatabases.url(server), proxy.port()), SHORT)) {
            RunSnapshot s = suspended(uniqueId(agentPrefix), uniqueId("run"), "t", "r", 0);
            assertThat(store.insert(s)).isTrue();
            body.run(proxy, store, s);
        }
    }
}
