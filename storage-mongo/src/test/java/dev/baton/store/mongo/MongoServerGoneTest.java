package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.StorageException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A server that goes away, never was there, or accepts connections and never answers gives a
 * {@link StorageException} naming the store (and the run) within seconds, with the default
 * timeouts of a URL-opened store. Each test uses a server of its own, whatever server the
 * other tests run on, because it has to kill it. Its tests mostly wait (on the driver's timeouts, about 30 s
 * in all) and share nothing, so they run at the same time, beside the module's other classes.
 */
@Execution(ExecutionMode.CONCURRENT)
class MongoServerGoneTest {

    /** Server selection gives up after 5 s; a few seconds more for the driver to notice and report. */
    private static final Duration WITHIN = Duration.ofSeconds(12);

    private static void failsFast(ThrowingCallable call, String... messageParts) {
        assertTimeoutPreemptively(WITHIN, () -> {
            assertThatThrownBy(call).isInstanceOf(StorageException.class).hasMessageContaining("MongoDB")
                    .hasMessageContainingAll(messageParts);
        });
    }

    @Test
    void aServerThatStopsGivesStorageExceptionsNotHangs() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        String url = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/gone";
        try (SnapshotStore store = SnapshotStores.open(url)) {
            RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
            assertThat(store.insert(s)).isTrue();
            server.shutdownNow();

            failsFast(() -> store.find(s.runId()), s.runId(), "find");
            failsFast(() -> store.compareAndSet(1, s.claimed("me", T0.plusSeconds(5), "{}")), s.runId(), "compare-and-set");
            failsFast(() -> store.list(RunQuery.forAgent(s.agentId(), T0).page(0, 5).build()), "list");
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void openingAStoreOnAPortWhereNothingListensFailsWithinSeconds() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String url = "mongodb://127.0.0.1:" + port + "/nobody";
        failsFast(() -> SnapshotStores.open(url).close(), "127.0.0.1:" + port, "indexes");
    }

    @Test
    void aServerThatAcceptsButNeverAnswersFailsWithinSeconds() throws Exception {
        List<Socket> accepted = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) accepted.add(silent.accept());
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-server");
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "mongodb://127.0.0.1:" + silent.getLocalPort() + "/silent";
            failsFast(() -> SnapshotStores.open(url).close(), "indexes");
        } finally {
            synchronized (accepted) {
                for (Socket s : accepted) s.close();
            }
        }
    }
}
