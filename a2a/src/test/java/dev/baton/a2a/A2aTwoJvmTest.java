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
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), A2aWorker.class.getName(),
                "jdbc:sqlite:" + root.resolve("baton.db"), root.toString());
        Process p = new ProcessBuilder(cmd).redirectError(root.resolve(name + ".stderr.log").toFile()).start();
        workers.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("port ")) {
            throw new AssertionError("worker " + name + " did not start: " + line + "; see " + root.resolve(name + ".stderr.log"));
        }
        return Integer.parseInt(line.substring(5));
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
}
