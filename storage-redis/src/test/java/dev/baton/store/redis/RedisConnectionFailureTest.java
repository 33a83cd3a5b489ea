package dev.baton.store.redis;

import dev.baton.tck.support.TcpProxy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.StorageException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A dead or silent server gives a {@link StorageException} within the timeout, never a hang. */
class RedisConnectionFailureTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisConnectionFailureTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration LIMIT = Duration.ofSeconds(8);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private static RunSnapshot run(String agent) {
        return RunSnapshot.builder().runId("run-" + UUID.randomUUID()).agentId(agent).status(RunStatus.SUSPENDED)
                .threadId("t").resourceId("r").createdAt(T0).suspendedAt(T0).payload("{}").summary("{\"calls\":[]}").build();
    }

    @Test
    void openingAClosedPortFailsWithAStorageException() throws IOException {
        int port = RedisTestServer.freePort();
        assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(
                () -> SnapshotStores.open("redis://127.0.0.1:" + port, Map.of("timeout", "PT2S")))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("127.0.0.1:" + port));
    }

    @Test
    void aServerThatAcceptsButNeverAnswersTimesOut() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = silent.accept(); InputStream in = s.getInputStream()) {
                    in.transferTo(OutputStreamSink.INSTANCE);
                } catch (IOException e) {
                    // closed
                }
            });
            t.setDaemon(true);
            t.start();
            assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(
                    () -> SnapshotStores.open("redis://127.0.0.1:" + silent.getLocalPort(), Map.of("timeout", "2000")))
                    .isInstanceOf(StorageException.class));
        }
    }

    @Test
    void aConnectionThatGoesSilentMidUseGivesAStorageExceptionNamingTheRun() throws Exception {
        RedisURI target = RedisURI.create(RedisTestServer.url());
        try (TcpProxy proxy = new TcpProxy(target.getHost(), target.getPort());
             RedisSnapshotStore store = RedisSnapshotStore.open("redis://127.0.0.1:" + proxy.port(), PREFIX, TIMEOUT)) {
            String agent = "agent-" + UUID.randomUUID();
            RunSnapshot s = run(agent);
            assertThat(store.insert(s)).isTrue();
            proxy.freeze();
            long start = System.nanoTime();
            assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(() -> store.find(s.runId()))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(s.runId()));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LIMIT);
            assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(
                    () -> store.list(RunQuery.forAgent(agent, T0).build())).isInstanceOf(StorageException.class));
        }
    }

    @Test
    void aServerThatGoesAwayMidUseGivesAStorageException() throws Exception {
        RedisURI target = RedisURI.create(RedisTestServer.url());
        TcpProxy proxy = new TcpProxy(target.getHost(), target.getPort());
        try (RedisSnapshotStore store = RedisSnapshotStore.open("redis://127.0.0.1:" + proxy.port(), PREFIX, TIMEOUT)) {
            RunSnapshot s = run("agent-" + UUID.randomUUID());
            assertThat(store.insert(s)).isTrue();
            proxy.close();
            assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(() -> store.compareAndSet(1, s.suspended(T0, "{}")))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(s.runId()));
        }
    }

    /** Discards what the silent server reads. */
    private static final class OutputStreamSink extends java.io.OutputStream {
        static final OutputStreamSink INSTANCE = new OutputStreamSink();

        @Override
        public void write(int b) {
        }
    }
}
