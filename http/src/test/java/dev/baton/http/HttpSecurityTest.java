package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.store.memory.MemorySnapshotStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Authentication, per-principal authorization, limits, and hostile ids: each case the issue lists.
 * Every response also goes through {@link ApiClient}'s checks (OpenAPI, no stack trace, no cookie).
 */
class HttpSecurityTest {
    TestServer t;
    String aliceRun;
    String bobRun;
    String carolRun;

    @BeforeEach
    void start() {
        t = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofSeconds(30));
        aliceRun = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "alice-lisbon", "Book a flight to Lisbon");
        bobRun = t.suspend(t.concierge, "2026-06-02T09:00:00Z", "bob", "bob-orders", "Refund 250 EUR");
        carolRun = t.suspend(t.concierge, "2026-06-03T09:00:00Z", "carol", "carol-tokyo", "Book a flight to Tokyo");
    }

    @AfterEach
    void stop() {
        t.close();
    }

    static String approve() {
        return "{\"toolCallId\":\"call_1_0\"}";
    }

    /** Percent-encodes every character outside RFC 3986's unreserved set, and dots: a path segment no client normalizes away. */
    static String segment(String id) {
        StringBuilder b = new StringBuilder();
        for (byte x : id.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (x & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_~".indexOf(c) >= 0) b.append(c);
            else b.append('%').append(String.format("%02X", x & 0xff));
        }
        return b.toString();
    }

    @Nested
    class Authentication {
        @Test
        void noTokenIs401WithABearerChallenge() {
            ApiClient.Response r = t.client(null).get("/agents");
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"baton\"");
            assertThat(r.json().get("title").asText()).isEqualTo("Unauthorized");
        }

        @Test
        void aWrongTokenIs401InvalidToken() {
            for (String path : List.of("/agents", "/me", "/agents/concierge/suspended-runs")) {
                ApiClient.Response r = t.client("wrong-token-0123456789").get(path);
                assertThat(r.status()).isEqualTo(401);
                assertThat(r.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
            }
            ApiClient.Response act = t.client("wrong-token-0123456789").post("/agents/concierge/runs/" + aliceRun + "/approve", approve());
            assertThat(act.status()).isEqualTo(401);
            assertThat(t.concierge.listSuspendedRuns().total()).as("nothing ran").isEqualTo(3);
        }

        @Test
        void otherSchemesAndCookiesAreNotCredentials() {
            HttpRequest basic = HttpRequest.newBuilder(t.server.uri().resolve("agents"))
                    .header("Authorization", "Basic " + TestServer.ADMIN).GET().build();
            HttpRequest cookie = HttpRequest.newBuilder(t.server.uri().resolve("agents"))
                    .header("Cookie", "token=" + TestServer.ADMIN).GET().build();
            assertThat(t.admin().send("GET", "/agents", basic).status()).isEqualTo(401);
            assertThat(t.admin().send("GET", "/agents", cookie).status()).isEqualTo(401);
        }

        @Test
        void theHookMapsARequestToAPrincipal() {
            Authenticator byHeader = request -> Optional.ofNullable(request.header("X-Authenticated-User"))
                    .map(user -> Principal.limitedTo(user, user));
            BatonHttpApi api = BatonHttpApi.builder().agents(t.concierge).authenticator(byHeader).build();
            try (BatonHttpServer s = BatonHttpServer.builder(api).port(0).start()) {
                HttpRequest asBob = HttpRequest.newBuilder(s.uri().resolve("agents/concierge/suspended-runs"))
                        .header("X-Authenticated-User", "bob").GET().build();
                ApiClient.Response r = new ApiClient(s.uri(), null).send("GET", "/agents/concierge/suspended-runs", asBob);
                assertThat(r.json().get("runs").findValuesAsText("resourceId")).containsExactly("bob");
                assertThat(new ApiClient(s.uri(), null).get("/agents").status()).isEqualTo(401);
            }
        }

        @Test
        void tokensMustBeLongAndDistinct() {
            assertThatThrownBy(() -> Authenticator.bearerTokens().token("short", Principal.unrestricted("x")))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("at least 16");
            assertThatThrownBy(() -> Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("a"))
                    .token(TestServer.ADMIN, Principal.unrestricted("b"))).hasMessageContaining("given twice");
            assertThatThrownBy(() -> BatonHttpApi.builder().agents(t.concierge).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("authenticator");
        }
    }

    @Nested
    class Authorization {
        @Test
        void listingIsAlwaysFilteredToThePrincipalsResources() {
            ApiClient alice = t.client(TestServer.ALICE);
            assertThat(alice.get("/agents/concierge/suspended-runs").json().get("runs").findValuesAsText("resourceId"))
                    .containsExactly("alice");
            JsonNode asked = alice.get("/agents/concierge/suspended-runs?resourceId=bob").json();
            assertThat(asked.get("runs")).isEmpty();
            assertThat(asked.get("total").asLong()).as("not even the count leaks").isZero();
            assertThat(alice.get("/agents/concierge/suspended-runs?threadId=bob-orders").json().get("total").asLong()).isZero();
            assertThat(t.client(TestServer.BOB).get("/agents/concierge/suspended-runs").json().get("runs")
                    .findValuesAsText("resourceId")).containsExactly("bob");
        }

        @Test
        void aPrincipalOfSeveralResourcesListsOneAtATime() {
            ApiClient both = t.client(TestServer.ALICE_AND_CAROL);
            ApiClient.Response unnamed = both.get("/agents/concierge/suspended-runs");
            assertThat(unnamed.status()).isEqualTo(400);
            assertThat(unnamed.json().get("option").asText()).isEqualTo("resourceId");
            assertThat(both.get("/agents/concierge/suspended-runs?resourceId=carol").json().get("runs")
                    .findValuesAsText("resourceId")).containsExactly("carol");
            assertThat(both.get("/agents/concierge/suspended-runs?resourceId=bob").json().get("total").asLong()).isZero();
        }

        @Test
        void actingOnAnotherUsersRunAnswersExactlyLikeAMissingRun() {
            ApiClient alice = t.client(TestServer.ALICE);
            String missing = "f" + bobRun.substring(1);
            ApiClient.Response absent = alice.post("/agents/concierge/runs/" + missing + "/approve", approve());
            for (String action : List.of("approve", "decline")) {
                ApiClient.Response r = alice.post("/agents/concierge/runs/" + bobRun + "/" + action, approve());
                assertThat(r.status()).isEqualTo(404);
                assertThat(r.headers().keySet()).isEqualTo(absent.headers().keySet());
                assertThat(r.body()).isEqualTo(absent.body().replace(missing, bobRun));
            }
            ApiClient.Response resume = alice.post("/agents/concierge/runs/" + bobRun + "/resume", "{\"resumeData\":{}}");
            assertThat(resume.status()).isEqualTo(404);
            assertThat(resume.body()).isEqualTo(absent.body().replace(missing, bobRun));
            assertThat(t.concierge.listSuspendedRuns().total()).as("bob's run is untouched").isEqualTo(3);

            ApiClient.Response own = alice.post("/agents/concierge/runs/" + aliceRun + "/approve", approve());
            assertThat(own.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
        }

        @Test
        void aPrincipalOfSeveralResourcesActsOnEachOfThem() {
            ApiClient both = t.client(TestServer.ALICE_AND_CAROL);
            assertThat(both.post("/agents/concierge/runs/" + carolRun + "/approve", approve()).status()).isEqualTo(200);
            assertThat(both.post("/agents/concierge/runs/" + bobRun + "/decline", approve()).status()).isEqualTo(404);
        }

        @Test
        void startingARunIsLimitedToTheOwnResources() {
            ApiClient alice = t.client(TestServer.ALICE);
            ApiClient.Response foreign = alice.post("/agents/concierge/runs", "{\"prompt\":\"Book a flight to Oslo\",\"resourceId\":\"bob\"}");
            assertThat(foreign.status()).isEqualTo(403);
            assertThat(foreign.json().get("option").asText()).isEqualTo("resourceId");
            ApiClient.Response own = alice.post("/agents/concierge/runs", "{\"prompt\":\"Book a flight to Oslo\"}");
            assertThat(own.last().json().get("outcome").asText()).isEqualTo("SUSPENDED");
            assertThat(alice.get("/agents/concierge/suspended-runs").json().get("total").asLong())
                    .as("the run took alice's resource").isEqualTo(2);
            assertThat(t.client(TestServer.ALICE_AND_CAROL).post("/agents/concierge/runs", "{\"prompt\":\"x\"}").status()).isEqualTo(400);
        }
    }

    @Nested
    class Limits {
        @Test
        void anOversizedDeclaredBodyIs413WithoutBeingRead() throws Exception {
            RawHttp.Response r = RawHttp.send(t.port(), "POST /agents/concierge/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + TestServer.ADMIN + "\r\nContent-Type: application/json\r\nContent-Length: 50000000", "{\"prompt\":".getBytes(StandardCharsets.UTF_8));
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.header("Connection")).isEqualTo("close");
            ApiClient.check("POST", "/agents/concierge/runs", r.asApiResponse());
            assertThat(r.asApiResponse().json().get("maxBodyBytes").asInt()).isEqualTo(1024);
        }

        @Test
        void anOversizedChunkedBodyIs413() {
            byte[] big = ("{\"prompt\":\"" + "x".repeat(5000) + "\"}").getBytes(StandardCharsets.UTF_8);
            HttpRequest chunked = HttpRequest.newBuilder(t.server.uri().resolve("agents/concierge/runs"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build();
            ApiClient.Response r = t.admin().send("POST", "/agents/concierge/runs", chunked);
            assertThat(r.status()).isEqualTo(413);
            assertThat(t.concierge.listSuspendedRuns().total()).isEqualTo(3);
        }

        @Test
        void aBodyJustUnderTheLimitIsRead() {
            String prompt = "Book a flight to Oslo " + "x".repeat(900);
            ApiClient.Response r = t.admin().postForJson("/agents/concierge/runs", "{\"prompt\":\"" + prompt + "\"}");
            assertThat(r.status()).isEqualTo(200);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"toolCallId\":", "{toolCallId: 'call_1_0'}", "{\"toolCallId\":\"a\"} trailing",
                "{\"toolCallId\":\"a\",\"toolCallId\":\"b\"}", "\u0000"})
        void malformedJsonIs400NamingTheBody(String body) {
            ApiClient.Response r = t.admin().post("/agents/concierge/runs/" + aliceRun + "/approve", body);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.json().get("option").asText()).isEqualTo("body");
            assertThat(r.json().get("detail").asText()).startsWith("body: not valid JSON");
            assertThat(t.concierge.listSuspendedRuns().total()).isEqualTo(3);
        }

        @Test
        void aClientThatNeverSendsItsBodyIsCutOffAfterTheRequestTime() throws Exception {
            try (TestServer slow = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofMillis(300));
                 Socket s = new Socket("127.0.0.1", slow.port())) {
                s.setSoTimeout(15_000);
                OutputStream out = s.getOutputStream();
                out.write(("POST /agents/concierge/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TestServer.ADMIN
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pro").getBytes(StandardCharsets.UTF_8));
                out.flush();
                long start = System.nanoTime();
                InputStream in = s.getInputStream();
                int read;
                try {
                    read = in.read();
                } catch (SocketException reset) {
                    read = -1;
                }
                long waitedMs = (System.nanoTime() - start) / 1_000_000;
                assertThat(read).as("the server closed the connection without answering").isEqualTo(-1);
                assertThat(waitedMs).isBetween(200L, 10_000L);
                // and it still serves everyone else
                assertThat(slow.admin().get("/agents").status()).isEqualTo(200);
            }
        }
    }

    @Nested
    class HostileIds {
        @ParameterizedTest
        @ValueSource(strings = {"a/b", "100%", "%2F", "..", "../../etc/passwd", "say \"hi\"", "it's", "<script>", "é/ü", "a+b", " "})
        void runIdsAreDecodedPerSegmentAndAnsweredLikeAnyMissingRun(String id) {
            ApiClient.Response r = t.admin().post("/agents/concierge/runs/" + segment(id) + "/approve", approve());
            assertThat(r.status()).as(r.body()).isEqualTo(404);
            assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:run-not-found");
            assertThat(r.json().get("runId").asText()).isEqualTo(id);
        }

        @Test
        void aLiteralDotDotSegmentIsAnIdNotATraversal() throws Exception {
            RawHttp.Response r = RawHttp.post(t.port(), "/agents/concierge/runs/../approve", TestServer.ADMIN, approve());
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.asApiResponse().json().get("runId").asText()).isEqualTo("..");
            RawHttp.Response dots = RawHttp.post(t.port(), "/agents/concierge/runs/%2e%2e/approve", TestServer.ADMIN, approve());
            assertThat(dots.asApiResponse().json().get("runId").asText()).isEqualTo("..");
        }

        @ParameterizedTest
        @ValueSource(strings = {"/../openapi.json", "/%2e%2e/%2e%2e/etc/passwd", "/inbox.js/..", "/..%2Finbox.js", "/./inbox.js",
                "/inbox.js%00", "/WEB-INF/web.xml", "/dev/baton/http/openapi.json"})
        void staticFilesDoNotTraverse(String path) throws Exception {
            RawHttp.Response r = RawHttp.get(t.port(), path, TestServer.ADMIN);
            assertThat(r.status()).as(path).isIn(400, 404);
            assertThat(r.header("Content-Type")).isEqualTo("application/problem+json");
        }

        @Test
        void agentIdsWithSlashesPercentsQuotesAndDotsAreServed() {
            List<String> ids = List.of("desk/one", "100%", "o'neil \"x\"", "..", "a%2Fb");
            MemorySnapshotStore store = MemorySnapshotStore.create();
            List<Agent> agents = ids.stream().map(id -> TestAgents.concierge(id, store, java.time.Clock.systemUTC())).toList();
            BatonHttpApi api = BatonHttpApi.builder().agents(agents).authenticator(Authenticator.anonymous()).build();
            try (BatonHttpServer s = BatonHttpServer.builder(api).port(0).start()) {
                ApiClient c = new ApiClient(s.uri(), null);
                for (Agent a : agents) {
                    String run = a.generate("Book a flight to Oslo", dev.baton.agent.RunOptions.builder().resourceId(a.id()).build()).runId();
                    JsonNode page = c.get("/agents/" + segment(a.id()) + "/suspended-runs?resourceId="
                            + URLEncoder.encode(a.id(), StandardCharsets.UTF_8)).json();
                    assertThat(page.get("runs").findValuesAsText("runId")).as(a.id()).containsExactly(run);
                    ApiClient.Response done = c.post("/agents/" + segment(a.id()) + "/runs/" + segment(run) + "/approve", approve());
                    assertThat(done.last().json().get("outcome").asText()).as(a.id()).isEqualTo("COMPLETED");
                }
                assertThat(c.get("/agents/desk/suspended-runs").status()).isEqualTo(404);
                assertThat(c.get("/agents/desk%2Fone%2F/suspended-runs").json().get("title").asText()).isEqualTo("Agent not found");
                assertThat(c.get("/agents").json().get("agents").findValuesAsText("id")).containsExactlyElementsOf(ids);
            }
        }

        @Test
        void oddResourceAndThreadIdsAreFilteredLiterally() {
            String odd = "o'neil \"x\" /%..&=?#";
            t.suspend(t.concierge, "2026-06-04T09:00:00Z", odd, odd, "Book a flight to Rome");
            JsonNode page = t.admin().get("/agents/concierge/suspended-runs?resourceId=" + URLEncoder.encode(odd, StandardCharsets.UTF_8)
                    + "&threadId=" + URLEncoder.encode(odd, StandardCharsets.UTF_8)).json();
            assertThat(page.get("runs").findValuesAsText("resourceId")).containsExactly(odd);
            assertThat(t.admin().get("/agents/concierge/suspended-runs?resourceId=o%27neil").json().get("total").asLong()).isZero();
        }

        @Test
        void aBadPercentEscapeIs400() throws IOException {
            RawHttp.Response r = RawHttp.get(t.port(), "/agents/con%ZZcierge/suspended-runs", TestServer.ADMIN);
            assertThat(r.status()).isIn(400);
            RawHttp.Response notUtf8 = RawHttp.get(t.port(), "/agents/%C3%28/suspended-runs", TestServer.ADMIN);
            assertThat(notUtf8.status()).isEqualTo(400);
            assertThat(notUtf8.asApiResponse().json().get("option").asText()).isEqualTo("path");
        }
    }
}
