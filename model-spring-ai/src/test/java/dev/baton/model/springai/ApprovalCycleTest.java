package dev.baton.model.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The approval cycle across two JVMs with a Spring AI model and a {@code @Tool} bean: JVM 1
 * streams an answer from the recorded OpenAI exchange whose tool call waits for approval, stores
 * the run and exits; JVM 2, with nothing in memory, finds the run in the shared store, approves
 * it, the tool runs once (a line in a file outside both JVMs), the tool result goes to the
 * provider with its call id, and the final text streams back. On SQLite (a file) and PostgreSQL
 * ({@code BATON_TEST_POSTGRES_URL}, skipped locally without it, required on CI).
 */
class ApprovalCycleTest {
    @TempDir
    Path dir;
    private RecordedProvider provider;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void start() {
        provider = RecordedProvider.start();
    }

    @AfterEach
    void stop() {
        for (Process p : processes) p.destroyForcibly();
        provider.close();
    }

    private String storeUrl(String database) {
        if (database.equals("SQLite")) return "jdbc:sqlite:" + dir.resolve("runs.db");
        String url = System.getenv("BATON_TEST_POSTGRES_URL");
        if (url == null || url.isBlank()) {
            if ("true".equals(System.getenv("CI"))) throw new AssertionError("BATON_TEST_POSTGRES_URL must be set on CI");
            assumeTrue(false, "BATON_TEST_POSTGRES_URL is not set");
        }
        return url;
    }

    /** Runs a worker JVM to its end; returns its one output line. */
    private String worker(String mode, String storeUrl, String agentId, Path bookings) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve(mode + ".out");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), ApprovalWorker.class.getName(),
                mode, storeUrl, provider.url(""), agentId, bookings.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        processes.add(p);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("worker %s finished", mode).isTrue();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("worker %s exit code; its output:%n%s", mode, String.join("\n", lines)).isZero();
        return lines.stream().filter(l -> l.startsWith("RUN ") || l.startsWith("DONE ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result line from " + mode + ":\n" + String.join("\n", lines)));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQLite", "PostgreSQL"})
    void aRunSuspendedInOneJvmIsApprovedInAnother_andTheToolRunsOnce(String database) throws Exception {
        String url = storeUrl(database);
        String agentId = Fixtures.uniqueAgentId();
        Path bookings = Files.writeString(dir.resolve("bookings.txt"), "");

        provider.then("openai/stream-text-then-tool-call.http");
        String suspended = worker("suspend", url, agentId, bookings);
        assertThat(suspended).startsWith("RUN ").endsWith(" SUSPENDED");
        assertThat(Files.readString(bookings)).isEmpty();

        provider.then("openai/stream-after-approval.http");
        String done = worker("approve", url, agentId, bookings);
        assertThat(done).isEqualTo("DONE COMPLETED Booked 2 seats to SFO.");
        assertThat(Files.readAllLines(bookings)).containsExactly("SFO x2");

        assertThat(provider.received()).hasSize(2);
        JsonNode messages = provider.lastRequest().body().path("messages");
        JsonNode toolMessage = messages.get(messages.size() - 1);
        assertThat(toolMessage.path("role").asText()).isEqualTo("tool");
        assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_P9q0R1s2T3u4V5w6X7y8Z9a0");
        assertThat(toolMessage.path("content").asText()).contains("booked 2 to SFO");
    }
}
