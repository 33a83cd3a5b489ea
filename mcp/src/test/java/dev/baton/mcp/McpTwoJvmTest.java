package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run waiting on an MCP tool's approval, across JVMs: suspended in this one, found and approved
 * in another that connects to the same server configuration (its own stdio server process); and a
 * JVM killed during the call, after which the call runs again with the same idempotency key.
 * The store is a SQLite file both JVMs open.
 */
class McpTwoJvmTest {
    @TempDir Path root;
    private Process worker;

    private String storeUrl() {
        return "jdbc:sqlite:" + root.resolve("baton.db");
    }

    @AfterEach
    void stopWorker() throws InterruptedException {
        if (worker != null && worker.isAlive()) {
            worker.destroyForcibly();
            worker.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Starts {@link McpWorker}; its stdout lines arrive in the returned queue. */
    private BlockingQueue<String> startWorker() throws IOException {
        List<String> cmd = List.of(TestServers.java(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                McpWorker.class.getName(), storeUrl(), root.toString(), "approve");
        worker = new ProcessBuilder(cmd).redirectError(root.resolve("worker.stderr.log").toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) lines.add(line);
            } catch (IOException e) {
                lines.add("io " + e);
            }
            lines.add("ended");
        }, "mcp-worker-reader");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    private String next(BlockingQueue<String> lines) throws Exception {
        String line = lines.poll(120, TimeUnit.SECONDS);
        if (line == null) throw new AssertionError("the worker said nothing for 120 s; see " + root.resolve("worker.stderr.log"));
        return line;
    }

    /** Suspends a run in this JVM and closes everything, as a process that ends would. */
    private String suspendHere(String prompt) {
        try (SnapshotStore store = SnapshotStores.open(storeUrl());
             McpToolset toolset = McpWorker.toolset(root);
             Agent agent = McpWorker.agent(store, toolset)) {
            AgentResult result = agent.generate(prompt);
            assertThat(result.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            return result.runId();
        }
    }

    @Test
    void aRunSuspendedInOneJvmIsApprovedInAnotherAndTheToolRunsThereOnce() throws Exception {
        String runId = suspendHere("Take a note: buy milk");
        assertThat(TestServers.ledger(root)).isEmpty();

        BlockingQueue<String> lines = startWorker();

        assertThat(next(lines)).startsWith("server-pid ");
        assertThat(next(lines)).isEqualTo("outcome COMPLETED");
        assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(worker.exitValue()).isZero();
        assertThat(TestServers.ledger(root)).containsExactly("write_file todo.txt key=" + runId + ":call_1_0 attempt=1");
        assertThat(Files.readString(root.resolve("files/todo.txt"))).isEqualTo("buy milk");
        try (SnapshotStore store = SnapshotStores.open(storeUrl())) {
            assertThat(store.find(runId)).as("a completed run is deleted").isEmpty();
        }
    }

    @Test
    void aCallCutShortByAKilledJvmRunsAgainWithTheSameIdempotencyKeyAndTheNextAttemptAndLeavesNoServerBehind() throws Exception {
        String runId = suspendHere("Write it slowly");
        BlockingQueue<String> lines = startWorker();
        long serverPid = Long.parseLong(next(lines).substring("server-pid ".length()));
        awaitLine(root.resolve("started.txt"), "write_file slow.txt", Duration.ofSeconds(60));

        worker.destroyForcibly();   // kill -9 while the MCP call is under way
        assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();

        awaitGone(serverPid, Duration.ofSeconds(20));   // its stdin closed: the stdio server ends, no orphan
        assertThat(TestServers.ledger(root)).as("the first attempt never finished").isEmpty();

        Files.writeString(root.resolve("no-delay"), "");
        try (SnapshotStore store = SnapshotStores.open(storeUrl());
             McpToolset toolset = McpWorker.toolset(root);
             Agent agent = McpWorker.agent(store, toolset)) {
            AgentRun interrupted = awaitListed(agent, runId);
            assertThat(interrupted.interruption()).isNotNull();
            assertThat(interrupted.toolCalls()).as("the approved call waits for nobody: it runs again").isEmpty();

            try (AgentStream continued = agent.continueRun(runId)) {
                assertThat(continued.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            }
        }
        assertThat(Files.readAllLines(root.resolve("started.txt"))).containsExactly("write_file slow.txt", "write_file slow.txt");
        assertThat(TestServers.ledger(root)).containsExactly("write_file slow.txt key=" + runId + ":call_1_0 attempt=2");
    }

    static void awaitLine(Path file, String line, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (!Files.exists(file) || !Files.readAllLines(file).contains(line)) {
            if (System.nanoTime() > deadline) throw new AssertionError(file + " has no line '" + line + "' after " + within);
            Thread.sleep(50);
        }
    }

    private static void awaitGone(long pid, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) throw new AssertionError("MCP server process " + pid + " outlived its client by " + within);
            Thread.sleep(50);
        }
    }

    /** The run, once its lapsed lease lets it be listed again. */
    private static AgentRun awaitListed(Agent agent, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (AgentRun run : agent.listSuspendedRuns().runs()) if (run.runId().equals(runId)) return run;
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " was not listed again after its lease lapsed");
    }
}
