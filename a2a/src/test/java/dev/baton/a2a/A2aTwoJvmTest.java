package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.spec.DataPart;
import io.a2a.spec.Task;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task survives its instance: the SDK's client starts a task on one Baton JVM, that JVM is killed
 * (kill -9) while the task waits for input, and another JVM over the same store (a SQLite file) finds
 * the task, takes the follow-up that approves it, and completes it; the tool runs once.
 */
class A2aTwoJvmTest {
    @TempDir Path root;
    private final List<Process> workers = new ArrayList<>();

    @AfterEach
    void stopWorkers() throws InterruptedException {
        for (Process p : workers) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Starts an {@link A2aWorker} JVM and returns the port it serves on. */
    private int startWorker(String name) throws IOException {
        return Integer.parseInt(startWorker(name, root.toString()).substring(5));
    }

    /** Starts an {@link A2aWorker} JVM with these arguments after the store's URL; returns its first line. */
    private String startWorker(String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), A2aWorker.class.getName(),
                "jdbc:sqlite:" + root.resolve("baton.db")));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(root.resolve(name + ".stderr.log").toFile()).start();
        workers.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !(line.startsWith("port ") || line.startsWith("outcome "))) {
            throw new AssertionError("worker " + name + " did not start: " + line + "; see " + root.resolve(name + ".stderr.log"));
        }
        return line;
    }

    @Test
    void aTaskWaitingWhenItsJvmIsKilledIsFoundAndApprovedOnAnotherJvm() throws Exception {
        int first = startWorker("first");
        JSONRPCTransport one = A2aServletTest.client("http://127.0.0.1:" + first + "/a2a");
        Task task = (Task) one.sendMessage(A2aServletTest.text("refund my order", null, null), A2aServletTest.as(A2aWorker.TOKEN));
        assertThat(task.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
        JsonNode call = A2aServletTest.waitingCall(task);

        Process killed = workers.get(0);
        killed.destroyForcibly();   // kill -9 while the task waits
        assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();

        int second = startWorker("second");
        JSONRPCTransport two = A2aServletTest.client("http://127.0.0.1:" + second + "/a2a");
        Task found = two.getTask(new TaskQueryParams(task.getId()), A2aServletTest.as(A2aWorker.TOKEN));
        assertThat(found.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
        assertThat(A2aServletTest.waitingCall(found).path("digest").asText()).isEqualTo(call.path("digest").asText());

        DataPart approve = new DataPart(Map.of("decision", "approve", "digest", call.path("digest").asText()));
        Task done = (Task) two.sendMessage(A2aServletTest.params(approve, task.getId(), task.getContextId(), UUID.randomUUID().toString()),
                A2aServletTest.as(A2aWorker.TOKEN));
        assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(A2aServletTest.resultText(done)).contains("refunded order 7");
        assertThat(Files.readAllLines(root.resolve("ledger.txt"))).hasSize(1);
        assertThat(two.getTask(new TaskQueryParams(task.getId()), A2aServletTest.as(A2aWorker.TOKEN)).getStatus().state())
                .isEqualTo(TaskState.COMPLETED);
    }

    @Test
    void aRunWaitingOnARemoteTaskWhenItsJvmIsKilledIsResumedInAnotherAndAnswersTheRemoteTask() throws Exception {
        java.util.concurrent.atomic.AtomicReference<SdkServer> sdk = new java.util.concurrent.atomic.AtomicReference<>();
        try (JettyServer remote = JettyServer.start(0, "/billing", url -> {
            sdk.set(new SdkServer(url.toString()));
            return sdk.get();
        })) {
            String remoteUrl = "http://127.0.0.1:" + remote.port + "/billing";
            assertThat(startWorker("delegating", "delegate", remoteUrl)).isEqualTo("outcome SUSPENDED");
            Process killed = workers.get(0);
            killed.destroyForcibly();   // kill -9 while the run waits on the remote task
            assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();

            try (dev.baton.store.SnapshotStore store = dev.baton.store.SnapshotStores.open("jdbc:sqlite:" + root.resolve("baton.db"));
                 dev.baton.agent.Agent agent = A2aWorker.delegating(store, remoteUrl)) {
                dev.baton.agent.AgentRun run = agent.listSuspendedRuns().runs().get(0);
                assertThat(run.toolCalls().get(0).suspendPayload().path("question").asText()).isEqualTo("Which invoice?");
                try (dev.baton.agent.AgentStream resumed = agent.resumeStream("INV-3", run.runId())) {
                    dev.baton.agent.AgentResult result = resumed.result();
                    assertThat(result.outcome()).isEqualTo(dev.baton.agent.RunOutcome.COMPLETED);
                    assertThat(result.text()).contains("refunded invoice INV-3 #1");
                }
            }
            assertThat(sdk.get().refunds).hasValue(1);
        }
    }
}
