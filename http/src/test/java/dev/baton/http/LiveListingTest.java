package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The listing as a conditional poll (the live inbox): a weak ETag of the content without
 * {@code asOf}, 304 without a body while it holds, a new tag when a run starts waiting or is decided,
 * scoped to the caller. And what one poll costs the server (printed; docs/notifications.md quotes it).
 */
class LiveListingTest {
    SnapshotStore store;
    TestAgents.MutableClock clock;
    Agent concierge;
    BatonHttpApi api;

    @BeforeEach
    void start() {
        store = SnapshotStores.open("memory:");
        clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
        concierge = TestAgents.concierge(TestAgents.CONCIERGE, store, clock);
        for (int i = 0; i < 10; i++) {
            concierge.generate("Book a flight to Lisbon " + i, RunOptions.builder().resourceId(i % 2 == 0 ? "alice" : "bob").build());
        }
        api = BatonHttpApi.builder().agents(concierge)
                .authenticator(Authenticator.bearerTokens()
                        .token(TestServer.ADMIN, Principal.unrestricted("admin"))
                        .token(TestServer.ALICE, Principal.limitedTo("alice", "alice"))
                        .build())
                .build();
    }

    @AfterEach
    void stop() {
        concierge.close();
        store.close();
    }

    ServletCall.Answer get(String token, String etag) {
        Map<String, String> h = etag == null ? Map.of("Authorization", "Bearer " + token, "Host", "127.0.0.1")
                : Map.of("Authorization", "Bearer " + token, "If-None-Match", etag, "Host", "127.0.0.1");
        return ServletCall.send(api, "GET", "/agents/concierge/suspended-runs?perPage=20", h, new byte[0]);
    }

    @Test
    void unchangedIs304WithoutABody_evenAsTheClockMoves_andAChangeIsANewTag() {
        ServletCall.Answer first = get(TestServer.ADMIN, null);
        String tag = first.headers().get("ETag");
        assertThat(first.status()).isEqualTo(200);
        assertThat(tag).startsWith("W/\"");

        clock.set(clock.instant().plusSeconds(5));   // asOf changes; the tag does not
        ServletCall.Answer again = get(TestServer.ADMIN, tag);
        assertThat(again.status()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.headers()).containsEntry("ETag", tag).doesNotContainKey("Content-Type").containsEntry("Cache-Control", "no-store");
        assertThat(get(TestServer.ADMIN, "W/\"other\", " + tag.substring(2)).status()).as("a list, strong or weak").isEqualTo(304);
        assertThat(get(TestServer.ADMIN, "W/\"other\"").status()).isEqualTo(200);

        concierge.generate("Book a flight to Tokyo", RunOptions.builder().resourceId("bob").build());
        ServletCall.Answer started = get(TestServer.ADMIN, tag);
        assertThat(started.status()).as("a run started waiting").isEqualTo(200);
        String tag2 = started.headers().get("ETag");
        assertThat(tag2).isNotEqualTo(tag);

        var run = concierge.listSuspendedRuns().runs().get(0);
        concierge.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result();
        assertThat(get(TestServer.ADMIN, tag2).status()).as("a run was decided").isEqualTo(200);
    }

    @Test
    void theTagIsOfWhatTheCallerMaySee() {
        String alice = get(TestServer.ALICE, null).headers().get("ETag");
        assertThat(alice).isNotEqualTo(get(TestServer.ADMIN, null).headers().get("ETag"));
        // a run of bob's changes the admin's listing, not alice's
        concierge.generate("Book a flight to Oslo", RunOptions.builder().resourceId("bob").build());
        assertThat(get(TestServer.ALICE, alice).status()).isEqualTo(304);
        concierge.generate("Book a flight to Rome", RunOptions.builder().resourceId("alice").build());
        assertThat(get(TestServer.ALICE, alice).status()).isEqualTo(200);
    }

    @Test
    void whatAPollCosts_overTheRealServer() throws Exception {
        try (HttpTarget.Served server = HttpTarget.serve(api)) {
            HttpClient client = HttpClient.newHttpClient();
            URI uri = URI.create(server.uri() + "agents/concierge/suspended-runs?perPage=20");
            HttpResponse<byte[]> full = client.send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + TestServer.ADMIN).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String tag = full.headers().firstValue("ETag").orElseThrow();
            double[] perPoll = new double[2];
            for (int pass = 0; pass < 2; pass++) {
                boolean conditional = pass == 1;
                for (int warm = 0; warm < 100; warm++) poll(client, uri, conditional ? tag : null);
                int n = 300;
                long cpu = processCpuNanos();
                long wall = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    int status = poll(client, uri, conditional ? tag : null);
                    assertThat(status).isEqualTo(conditional ? 304 : 200);
                }
                wall = System.nanoTime() - wall;
                cpu = processCpuNanos() - cpu;
                perPoll[pass] = cpu / 1000.0 / n;
                System.out.printf("live listing: %s poll of 10 runs: %.0f µs CPU per poll (the whole JVM: server and the test's client), "
                        + "%.0f µs wall, %d bytes%n", conditional ? "304" : "200", perPoll[pass], wall / 1000.0 / n,
                        conditional ? 0 : full.body().length);
            }
            System.out.printf("live listing: one open page polls 1.33 requests/s: %.2f ms CPU per second per page (304s)%n",
                    perPoll[1] * 1.333 / 1000);
            assertThat(full.body().length).isGreaterThan(1000);
            assertThat(new String(full.body(), StandardCharsets.UTF_8)).contains("\"asOf\"");
        }
    }

    private static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static int poll(HttpClient client, URI uri, String etag) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + TestServer.ADMIN);
        if (etag != null) b.header("If-None-Match", etag);
        return client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
