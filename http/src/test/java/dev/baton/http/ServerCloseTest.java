package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@link BatonHttpServer#close()} closes: its listener, its threads and the event streams open
 * on them (each run stops where it is and is kept); not the agents it serves, nor their stores.
 */
class ServerCloseTest {

    @Test
    void closingTheServerStopsItsOpenStreamsKeepsTheirRunsAndLeavesTheAgentsAndTheirStoreOpen() throws Exception {
        CountDownLatch toolStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (SnapshotStore store = MemorySnapshotStore.create()) {
            Agent gated = TestAgents.gated("gated", store, toolStarted, release);
            String run = gated.generate("Launch it", RunOptions.DEFAULT).runId();
            BatonHttpServer server = serve(gated);
            HttpResponse<InputStream> streaming;
            try {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                HttpRequest approve = approve(server, run);
                streaming = http.send(approve, HttpResponse.BodyHandlers.ofInputStream());
                assertThat(streaming.statusCode()).isEqualTo(200);
                assertThat(toolStarted.await(10, TimeUnit.SECONDS)).as("the approved tool is running").isTrue();
            } finally {
                long began = System.nanoTime();
                server.close();
                server.close();   // again: nothing more
                assertThat(Duration.ofNanos(System.nanoTime() - began)).as("close waits for the handlers, within its bound")
                        .isLessThan(Duration.ofSeconds(10));
            }
            try (InputStream in = streaming.body()) {
                in.readAllBytes();   // the stream ended with the server (possibly cut)
            } catch (java.io.IOException cut) {
                // the connection closed under the reader: as good as an end
            }

            // the run was stopped where it was and kept, not lost: the agent and its store still work
            AgentRun kept = gated.listSuspendedRuns().runs().stream().filter(r -> r.runId().equals(run)).findFirst().orElseThrow();
            assertThat(kept.interrupted()).as("kept as interrupted: " + kept).isTrue();
            release.countDown();
            AgentResult continued = gated.continueRun(run).result();
            assertThat(continued.outcome()).isEqualTo(RunOutcome.COMPLETED);
        } finally {
            release.countDown();
        }
    }

    @Test
    void closingWithADrainLetsTheRequestUnderWayFinishAndRefusesNewConnections() throws Exception {
        CountDownLatch toolStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (SnapshotStore store = MemorySnapshotStore.create()) {
            Agent gated = TestAgents.gated("gated", store, toolStarted, release);
            String run = gated.generate("Launch it", RunOptions.DEFAULT).runId();
            BatonHttpServer server = serve(gated);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest approve = approve(server, run);
            HttpResponse<InputStream> streaming = http.send(approve, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(toolStarted.await(10, TimeUnit.SECONDS)).isTrue();
            Thread releaser = new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
                release.countDown();
            });
            releaser.start();
            server.close(Duration.ofSeconds(20));   // returns once the request under way has finished
            String body;
            try (InputStream in = streaming.body()) {
                body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            assertThat(body).as("the stream ran to its end").contains("finish");
            assertThat(store.find(run)).as("the run completed while the server drained").isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(server.uri()).build(),
                    HttpResponse.BodyHandlers.discarding())).as("no new connection once closing").isInstanceOf(java.io.IOException.class);
        } finally {
            release.countDown();
        }
    }

    /** An anonymous server on a free port serving {@code gated}. */
    private static BatonHttpServer serve(Agent gated) {
        BatonHttpApi api = BatonHttpApi.builder().agents(gated).authenticator(Authenticator.anonymous()).build();
        return BatonHttpServer.builder(api).port(0).start();
    }

    /** The request approving the gated tool call of {@code run}, whose answer streams the run's events. */
    private static HttpRequest approve(BatonHttpServer server, String run) {
        return HttpRequest.newBuilder(server.uri().resolve("agents/gated/runs/" + run + "/approve"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"toolCallId\":\"call_1_0\"}")).build();
    }
}
