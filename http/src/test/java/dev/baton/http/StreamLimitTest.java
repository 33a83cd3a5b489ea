package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bound on concurrent event streams per principal (on 127.0.0.1, with a tool the test holds open). */
class StreamLimitTest {
    static final String ALICE = "alice-token-0123456789";
    static final String BOB = "bob-token-01234567890";
    static final String APPROVE = "{\"toolCallId\":\"call_1_0\"}";

    static HttpResponse<InputStream> openStream(HttpTarget.Served s, String token, String run) throws IOException, InterruptedException {
        HttpRequest approve = HttpRequest.newBuilder(s.uri().resolve("agents/gated/runs/" + run + "/approve"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(APPROVE)).build();
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(approve, HttpResponse.BodyHandlers.ofInputStream());
    }

    @Test
    void theStreamOverTheBoundIs429BeforeAnythingRunsAndSlotsComeBackWhenStreamsEnd() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try (SnapshotStore store = MemorySnapshotStore.create()) {
            Agent gated = TestAgents.gated("gated", store, started, release);
            String r1 = gated.generate("Launch it", RunOptions.DEFAULT).runId();
            String r2 = gated.generate("Launch it", RunOptions.DEFAULT).runId();
            String r3 = gated.generate("Launch it", RunOptions.DEFAULT).runId();
            BatonHttpApi api = BatonHttpApi.builder().agents(gated).maxStreamsPerPrincipal(2)
                    .authenticator(Authenticator.bearerTokens().token(ALICE, Principal.unrestricted("alice"))
                            .token(BOB, Principal.unrestricted("bob")).build())
                    .build();
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
                HttpResponse<InputStream> first = openStream(s, ALICE, r1);
                HttpResponse<InputStream> second = openStream(s, ALICE, r2);
                assertThat(first.statusCode()).isEqualTo(200);
                assertThat(second.statusCode()).isEqualTo(200);
                assertThat(started.await(10, TimeUnit.SECONDS)).as("both tools are running").isTrue();
                assertThat(api.openStreams("alice")).isEqualTo(2);

                ApiClient alice = new ApiClient(s.uri(), ALICE);
                ApiClient.Response refused = alice.post("/agents/gated/runs/" + r3 + "/approve", APPROVE);
                assertThat(refused.status()).isEqualTo(429);
                assertThat(refused.header("Retry-After")).isEqualTo("5");
                assertThat(refused.contentType()).isEqualTo("application/problem+json");
                assertThat(refused.json().get("type").asText()).isEqualTo("urn:baton:problem:too-many-streams");
                assertThat(refused.json().get("maxStreams").asInt()).isEqualTo(2);
                assertThat(alice.post("/agents/gated/runs", "{\"prompt\":\"Launch it\"}").status()).as("starting too").isEqualTo(429);
                assertThat(gated.listSuspendedRuns().runs()).extracting(AgentRun::runId).as("nothing ran").contains(r3);

                // the drained result is not a stream; another principal has its own slots
                assertThat(alice.postForJson("/agents/gated/runs", "{\"prompt\":\"Launch it\"}").status()).isEqualTo(200);
                ApiClient.Response bobs = new ApiClient(s.uri(), BOB).post("/agents/gated/runs", "{\"prompt\":\"Launch it\"}");
                assertThat(bobs.status()).isEqualTo(200);
                assertThat(bobs.last().json().get("outcome").asText()).isEqualTo("SUSPENDED");
                assertThat(api.openStreams("bob")).as("an ended stream gives its slot back").isZero();

                first.body().close();   // this client goes away
                release.countDown();
                try (InputStream in = second.body()) {
                    in.readAllBytes();   // this one reads its stream to the end
                }
                for (int i = 0; i < 100 && api.openStreams("alice") > 0; i++) Thread.sleep(100);
                assertThat(api.openStreams("alice")).as("both slots back").isZero();
                ApiClient.Response again = alice.post("/agents/gated/runs/" + r3 + "/approve", APPROVE);
                assertThat(again.status()).isEqualTo(200);
                assertThat(again.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void theBoundIsPositive() {
        assertThatThrownBy(() -> BatonHttpApi.builder().maxStreamsPerPrincipal(0))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("maxStreamsPerPrincipal");
    }
}
