package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationState;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The outbox across processes: a JVM is killed with {@code kill -9} right after the write that
 * suspends a run (before any delivery), or after it claimed the notification and while it delivers;
 * another JVM delivers it, once. On an H2 file (AUTO_SERVER) and, when {@code BATON_TEST_POSTGRES_URL}
 * is set, on PostgreSQL.
 */
class NotifierProcessTest {
    static final String SECRET = "whsec_YS1zaGFyZWQtc2VjcmV0LWZvci10aGUtdGVzdHMtMzI=";   // 32 bytes

    @TempDir
    static Path dir;

    Receiver receiver;
    final List<Process> processes = new ArrayList<>();

    static Stream<Arguments> stores() {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("H2", "jdbc:h2:file:" + dir.resolve("outbox").toAbsolutePath() + ";AUTO_SERVER=TRUE"));
        String pg = System.getenv("BATON_TEST_POSTGRES_URL");
        if (pg != null && !pg.isBlank()) out.add(Arguments.of("PostgreSQL", pg));
        return out.stream();
    }

    @BeforeEach
    void start() throws Exception {
        receiver = new Receiver().verifying(WebhookVerifier.of(SECRET));
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        receiver.close();
    }

    /** A worker JVM and the lines it says. */
    final class Worker {
        final Process process;
        final Writer in;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Worker(String name, String... args) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), NotifyWorker.class.getName()));
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve(name + ".stderr.log").toFile());
            process = pb.start();
            processes.add(process);
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread t = new Thread(() -> {
                try {
                    for (String l; (l = out.readLine()) != null; ) lines.add(l);
                } catch (IOException e) {
                    // ended
                }
                lines.add("ended");
            });
            t.setDaemon(true);
            t.start();
        }

        String expect(String prefix) throws InterruptedException {
            String l = lines.poll(60, TimeUnit.SECONDS);
            assertThat(l).as("worker says %s… (see %s)", prefix, dir).isNotNull().startsWith(prefix);
            return l.substring(prefix.length()).trim();
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();   // SIGKILL: no shutdown hook, no cleanup
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        void exit() throws IOException, InterruptedException {
            in.write("exit\n");
            in.flush();
        }
    }

    void awaitDeliveries(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (receiver.deliveredIds().size() < n && System.nanoTime() < deadline) Thread.sleep(50);
        Thread.sleep(500);   // and no more come
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void killedRightAfterTheSuspensionsWrite_anotherJvmDeliversIt(String name, String url) throws Exception {
        String agentId = "kill-" + UUID.randomUUID();
        Worker a = new Worker("suspend", url, agentId, "suspend");
        String runId = a.expect("stored");
        a.kill();
        RunSnapshot stored;
        try (SnapshotStore store = open(url)) {
            stored = store.find(runId).orElseThrow();
            assertThat(stored.notifyAt()).as("the obligation survived the kill").isNotNull();
        }

        Worker b = new Worker("deliver", url, agentId, "deliver", receiver.url().toString(), SECRET);
        b.expect("ready");
        awaitDeliveries(1);
        assertThat(receiver.deliveredIds()).containsExactly(NotificationState.of(NotificationEvent.SUSPENDED).id(stored));
        assertThat(receiver.received).allMatch(Receiver.Received::verified);
        b.exit();
        assertThat(b.expect("stats")).isEqualTo("1");
        try (SnapshotStore store = open(url)) {
            assertThat(store.find(runId).orElseThrow().notifyAt()).as("done").isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void killedWhileDeliveringAClaimedNotification_anotherJvmDeliversItAfterTheClaimLapses(String name, String url) throws Exception {
        String agentId = "claim-" + UUID.randomUUID();
        Worker a = new Worker("suspend2", url, agentId, "suspend");
        String runId = a.expect("stored");
        a.kill();
        Worker hang = new Worker("hang", url, agentId, "hang");
        hang.expect("ready");
        String id = hang.expect("delivering");
        hang.kill();
        try (SnapshotStore store = open(url)) {
            NotificationState claimed = NotificationState.of(store.find(runId).orElseThrow());
            assertThat(claimed.attempts()).as("the killed JVM's claim counted its attempt").isEqualTo(1);
        }

        Worker b = new Worker("deliver2", url, agentId, "deliver", receiver.url().toString(), SECRET);
        b.expect("ready");
        awaitDeliveries(1);
        assertThat(receiver.deliveredIds()).as("delivered once, with the id the killed JVM was sending").containsExactly(id);
        b.exit();
        b.expect("stats");
    }

    /**
     * Opens the store in this JVM. An H2 file with AUTO_SERVER=TRUE is served by whichever process
     * opened it first: right after that process exits or is killed, its lock file may still name its
     * port for a moment, and a connection then ends with EOF; H2 takes the file over on a retry.
     */
    private static SnapshotStore open(String url) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return SnapshotStores.open(url);
            } catch (dev.baton.StorageException e) {
                if (attempt == 20) throw e;
                Thread.sleep(250);
            }
        }
    }
}
