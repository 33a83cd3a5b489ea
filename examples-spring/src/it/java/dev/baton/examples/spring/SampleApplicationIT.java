package dev.baton.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample application as a user runs it: {@code java -jar} of the Spring Boot jar this module built (on this
 * module's Spring Boot line), in a process of its own. An HTTP client lists the suspended runs over the starter's HTTP
 * API and approves one; the store's health and Baton's meters are under {@code /actuator}.
 */
class SampleApplicationIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    private Process app;
    private int port;

    @AfterEach
    void stop() throws Exception {
        if (app != null && app.isAlive()) {
            app.destroy();   // SIGTERM: Spring closes the context, the agents hand back their runs
            if (!app.waitFor(30, TimeUnit.SECONDS)) app.destroyForcibly().waitFor();
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", "application/json");
        return HTTP.send(b.header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code java -jar} and waits until its health endpoint answers (at most two minutes on a busy machine). */
    private void start() throws Exception {
        Path jar = Path.of(System.getProperty("sample.jar"));
        assertThat(jar).as("the Spring Boot jar of this module (mvn package)").exists();
        port = freePort();
        Path log = data.resolve("app.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                "--server.port=" + port,
                "--spring.datasource.url=jdbc:h2:file:" + data.resolve("inbox").toAbsolutePath()));
        app = new ProcessBuilder(command).directory(data.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            assertThat(app.isAlive()).as("the application is running; its output:%n%s", Files.readString(log, StandardCharsets.UTF_8)).isTrue();
            try {
                if (send("GET", "/actuator/health", null).statusCode() == 200) return;
            } catch (IOException notYet) {
                // not listening yet
            }
            assertThat(System.nanoTime()).as("started within two minutes; its output:%n%s", Files.readString(log, StandardCharsets.UTF_8))
                    .isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    @Test
    void javaJarStartsAndAnHttpClientListsASuspendedRunAndApprovesIt() throws Exception {
        start();
        assertThat(send("GET", "/baton/", null).body()).contains("inbox.js");

        JsonNode list = JSON.readTree(send("GET", "/baton/agents/concierge/suspended-runs", null).body());
        assertThat(list.path("total").asInt()).as(list.toString()).isEqualTo(3);
        JsonNode run = null;
        for (JsonNode r : list.path("runs")) {
            if (r.path("toolCalls").get(0).path("toolName").asText().equals("bookFlight")) run = r;
        }
        assertThat(run).as("a run waiting for bookFlight in %s", list).isNotNull();
        String call = run.path("toolCalls").get(0).path("toolCallId").asText();

        HttpResponse<String> approved = send("POST", "/baton/agents/concierge/runs/" + run.path("runId").asText() + "/approve",
                "{\"toolCallId\":\"" + call + "\"}");
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(JSON.readTree(approved.body()).path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(approved.body()).contains("\"booked\"");

        assertThat(JSON.readTree(send("GET", "/baton/agents/concierge/suspended-runs", null).body()).path("total").asInt()).isEqualTo(2);
        JsonNode health = JSON.readTree(send("GET", "/actuator/health/batonStore", null).body());
        assertThat(health.path("status").asText()).as(health.toString()).isEqualTo("UP");
        assertThat(health.path("details").path("store").asText()).contains("H2");
        JsonNode resumed = JSON.readTree(send("GET", "/actuator/metrics/baton.resume?tag=action:approve", null).body());
        assertThat(resumed.path("measurements").get(0).path("value").asDouble()).as(resumed.toString()).isEqualTo(1);
    }
}
