package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentRun;
import dev.baton.store.SnapshotStore;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
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
    ListingHookStore store;
    TestServer t;
    String aliceRun;
    String bobRun;
    String carolRun;

    @BeforeEach
    void start() {
        store = new ListingHookStore(MemorySnapshotStore.create());
        t = new TestServer(store, 1024, Duration.ofSeconds(30));
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
            Authenticator byHeader = request -> Optional.ofNullable(request.getHeader("X-Authenticated-User"))
                    .map(user -> Principal.limitedTo(user, user));
            BatonHttpApi api = BatonHttpApi.builder().agents(t.concierge).authenticator(byHeader).build();
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
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
        void actingOnAnotherUsersRunAnswersExactlyLikeAMissingRun() {
            ApiClient alice = t.client(TestServer.ALICE);
            String missing = "f" + bobRun.substring(1);
            // one of bob's runs is interrupted, waiting for nobody: continuing it is the action that fits
            String bobInterrupted = t.suspend(t.concierge, "2026-06-02T10:00:00Z", "bob", "bob-trips", "Book a flight to Rome");
            t.flaky.failNext(1);
            t.admin().post("/agents/concierge/runs/" + bobInterrupted + "/approve", approve());
            record Act(String method, String action, String body) {
            }
            for (Act act : List.of(new Act("POST", "/approve", approve()), new Act("POST", "/decline", approve()),
                    new Act("POST", "/resume", "{\"resumeData\":{}}"), new Act("POST", "/continue", "{}"),
                    new Act("POST", "/cancel", "{\"reason\":\"mine now\"}"), new Act("DELETE", "", null))) {
                ApiClient.Response absent = alice.send(act.method(), "/agents/concierge/runs/" + missing + act.action(), act.body(), null);
                for (String theirs : List.of(bobRun, bobInterrupted)) {
                    String m = missing.substring(0, 1) + theirs.substring(1);
                    ApiClient.Response gone = m.equals(missing) ? absent
                            : alice.send(act.method(), "/agents/concierge/runs/" + m + act.action(), act.body(), null);
                    ApiClient.Response r = alice.send(act.method(), "/agents/concierge/runs/" + theirs + act.action(), act.body(), null);
                    assertThat(r.status()).as(act + " " + r.body()).isEqualTo(404);
                    assertThat(r.headers().keySet()).as(act.toString()).isEqualTo(gone.headers().keySet());
                    assertThat(r.body()).as(act.toString()).isEqualTo(gone.body().replace(m, theirs));
                }
            }
            assertThat(t.concierge.listSuspendedRuns().total()).as("bob's runs are untouched").isEqualTo(4);
            assertThat(t.concierge.listSuspendedRuns().runs()).filteredOn(run -> run.runId().equals(bobInterrupted))
                    .singleElement().satisfies(run -> assertThat(run.interrupted()).isTrue());

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

    /**
     * A principal limited to several resources lists all of them at once: one query per resource,
     * merged in listing order, totals added; numbered pages and the cursor as exact as one store
     * query would be.
     */
    @Nested
    class SeveralResources {
        static final Set<String> BOTH = Set.of("alice", "carol");

        JsonNode list(String query) {
            ApiClient.Response r = t.client(TestServer.ALICE_AND_CAROL).get("/agents/concierge/suspended-runs" + query);
            assertThat(r.status()).as(query + " " + r.body()).isEqualTo(200);
            return r.json();
        }

        List<String> ids(JsonNode page) {
            return page.get("runs").findValuesAsText("runId");
        }

        /** What one store query over both resources would list: the agent's own listing, filtered. */
        List<String> expected(Predicate<AgentRun> filter) {
            return t.concierge.listSuspendedRuns().runs().stream()
                    .filter(r -> BOTH.contains(r.resourceId())).filter(filter).map(AgentRun::runId).toList();
        }

        @Test
        void withoutAResourceIdTheRunsOfAllItsResourcesAreListedNewestFirst() {
            JsonNode page = list("");
            assertThat(page.get("runs").findValuesAsText("resourceId")).containsExactly("carol", "alice");
            assertThat(page.get("total").asLong()).isEqualTo(2);
            assertThat(list("?resourceId=carol").get("runs").findValuesAsText("resourceId")).containsExactly("carol");
            JsonNode foreign = list("?resourceId=bob");
            assertThat(foreign.get("runs")).isEmpty();
            assertThat(foreign.get("total").asLong()).isZero();
            assertThat(foreign.get("nextCursor").isNull()).isTrue();
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {11, 23, 37})
        void pagesAndCursorsAreExactlyTheSingleQueryListing(long seed) {
            Random random = new Random(seed);
            List<String> resources = List.of("alice", "carol", "bob", "dave");
            for (int i = 0; i < 24; i++) {
                // a few instants only: runs of different resources tie on createdAt, and runId decides
                Instant at = Instant.parse("2026-06-10T00:00:00Z").plusSeconds(60L * random.nextInt(6));
                String resource = resources.get(random.nextInt(resources.size()));
                t.suspend(t.concierge, at.toString(), resource, resource + "-" + random.nextInt(2), "Book a flight to Oslo");
            }
            for (String filter : List.of("", "&threadId=alice-1", "&fromDate=2026-06-03&toDate=2026-06-10T00:03:00Z")) {
                Predicate<AgentRun> matches = switch (filter) {
                    case "" -> r -> true;
                    case "&threadId=alice-1" -> r -> "alice-1".equals(r.threadId());
                    default -> r -> !r.createdAt().isBefore(Instant.parse("2026-06-03T00:00:00Z"))
                            && !r.createdAt().isAfter(Instant.parse("2026-06-10T00:03:00Z"));
                };
                List<String> expected = expected(matches);
                for (int perPage : new int[] {1, 3, 7}) {
                    String where = "seed " + seed + ", perPage " + perPage + filter;
                    List<String> byPage = new ArrayList<>();
                    for (int page = 0; ; page++) {
                        JsonNode p = list("?perPage=" + perPage + "&page=" + page + filter);
                        assertThat(p.get("total").asLong()).as(where).isEqualTo(expected.size());
                        assertThat(p.get("nextCursor").isNull()).as(where).isEqualTo(p.get("runs").size() < perPage);
                        if (p.get("runs").isEmpty()) break;
                        byPage.addAll(ids(p));
                    }
                    assertThat(byPage).as(where + ", numbered pages").isEqualTo(expected);

                    List<String> byCursor = new ArrayList<>();
                    JsonNode p = list("?perPage=" + perPage + filter);
                    for (int guard = 0; guard < 100; guard++) {
                        byCursor.addAll(ids(p));
                        if (p.get("nextCursor").isNull()) break;
                        p = list("?perPage=" + perPage + filter + "&cursor=" + p.get("nextCursor").asText());
                        assertThat(p.get("page").isNull()).isTrue();
                    }
                    assertThat(byCursor).as(where + ", cursor").isEqualTo(expected);

                    if (expected.size() > perPage) {
                        // a numbered page's cursor continues right after it
                        JsonNode second = list("?perPage=" + perPage + "&page=1" + filter);
                        if (!second.get("nextCursor").isNull()) {
                            JsonNode after = list("?perPage=" + perPage + filter + "&cursor=" + second.get("nextCursor").asText());
                            assertThat(ids(after)).as(where).isEqualTo(expected.subList(Math.min(2 * perPage, expected.size()),
                                    Math.min(3 * perPage, expected.size())));
                        }
                    }
                }
            }
        }

        @Test
        void aResourceWhoseRunsChangeBetweenTheQueriesIsReadAgain() {
            // a page of 2 over alice (06-04, 06-01) and carol (06-03) ends on carol's run, which ended no page
            // of carol's: its cursor takes one more query, and a newer carol run arrives just before it
            t.suspend(t.concierge, "2026-06-04T09:00:00Z", "alice", "alice-2", "Book a flight to Rome");
            AtomicBoolean armed = new AtomicBoolean(true);
            store.beforeList = q -> {
                if (Integer.valueOf(1).equals(q.limit()) && armed.compareAndSet(true, false)) {
                    t.suspend(t.concierge, "2026-06-05T09:00:00Z", q.resourceId(), q.resourceId() + "-new", "Book a flight to Oslo");
                }
            };
            JsonNode first = list("?perPage=2");
            store.beforeList = null;
            assertThat(armed).as("the run arrived between the queries").isFalse();
            List<String> expected = expected(r -> true);
            assertThat(expected).hasSize(4);
            assertThat(ids(first)).as("read again, with the new run").isEqualTo(expected.subList(0, 2));
            assertThat(first.get("total").asLong()).isEqualTo(4);
            JsonNode second = list("?perPage=2&cursor=" + first.get("nextCursor").asText());
            assertThat(ids(second)).isEqualTo(expected.subList(2, 4));
            assertThat(list("?perPage=2&cursor=" + second.get("nextCursor").asText()).get("runs")).isEmpty();
        }

        @Test
        void runsThatKeepChangingAnswer503ListingChanged() {
            t.suspend(t.concierge, "2026-06-04T09:00:00Z", "alice", "alice-2", "Book a flight to Rome");
            AtomicInteger arrivals = new AtomicInteger();
            store.beforeList = q -> {
                if (Integer.valueOf(1).equals(q.limit())) {
                    String at = Instant.parse("2026-07-01T00:00:00Z").plusSeconds(arrivals.incrementAndGet()).toString();
                    t.suspend(t.concierge, at, q.resourceId(), q.resourceId() + "-busy", "Book a flight to Oslo");
                }
            };
            ApiClient.Response r = t.client(TestServer.ALICE_AND_CAROL).get("/agents/concierge/suspended-runs?perPage=2");
            store.beforeList = null;
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:listing-changed");
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(arrivals.get()).isEqualTo(ResourceMerge.ATTEMPTS);
        }

        @Test
        void numberedPagesTooDeepForAMergeAre400NamingPageAndBadCursors400NamingCursor() {
            ApiClient both = t.client(TestServer.ALICE_AND_CAROL);
            ApiClient.Response deep = both.get("/agents/concierge/suspended-runs?perPage=200&page=50");
            assertThat(deep.status()).isEqualTo(400);
            assertThat(deep.json().get("option").asText()).isEqualTo("page");
            assertThat(deep.json().get("detail").asText()).contains("nextCursor");
            assertThat(both.get("/agents/concierge/suspended-runs?perPage=200&page=49").status()).as("(49 + 1) * 200 runs per resource").isEqualTo(200);
            for (String q : List.of("?cursor=c1.bm9wZQ", "?resourceId=bob&cursor=nonsense", "?resourceId=carol&cursor=nonsense")) {
                ApiClient.Response bad = both.get("/agents/concierge/suspended-runs" + q);
                assertThat(bad.status()).as(q).isEqualTo(400);
                assertThat(bad.json().get("option").asText()).as(q).isEqualTo("cursor");
            }
        }
    }

    @Nested
    class Limits {
        @Test
        void anOversizedDeclaredBodyIs413WithoutBeingRead() throws Exception {
            RawHttp.Response r = RawHttp.send(t.port(), "POST /agents/concierge/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
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
                "{\"toolCallId\":\"a\",\"toolCallId\":\"b\"}", "\u0000", "{\"toolCallId\":\"a\",\"args\":{\"n\":NaN}}",
                "{\"toolCallId\":\"a\",\"args\":{\"n\":-Infinity}}", "{'toolCallId':'a'}", "{\"toolCallId\":\"a\",\"args\":01}"})
        void malformedJsonIs400NamingTheBodyInTheApisWords(String body) {
            ApiClient.Response r = t.admin().post("/agents/concierge/runs/" + aliceRun + "/approve", body);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.json().get("option").asText()).isEqualTo("body");
            assertThat(r.json().get("detail").asText()).startsWith("body: not valid JSON")
                    .as("no parser class or setting a client cannot change").doesNotContain("`", "Feature", "StreamReadConstraints", "enable");
            assertThat(t.concierge.listSuspendedRuns().total()).isEqualTo(3);
        }

        @Test
        void aBodyNestedTooDeeplyIs400SayingSoInTheApisWords() {
            String body = "{\"toolCallId\":\"a\",\"args\":" + "[".repeat(80) + "]".repeat(80) + "}";
            ApiClient.Response r = t.admin().post("/agents/concierge/runs/" + aliceRun + "/approve", body);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.json().get("detail").asText()).isEqualTo("body: not valid JSON: nested deeper than 64 levels");
        }

        @Test
        void aClientThatNeverSendsItsBodyIsCutOffAfterTheRequestTime() throws Exception {
            try (TestServer slow = new TestServer(MemorySnapshotStore.create(), 1024, Duration.ofMillis(300));
                 Socket s = new Socket("127.0.0.1", slow.port())) {
                s.setSoTimeout(15_000);
                OutputStream out = s.getOutputStream();
                out.write(("POST /agents/concierge/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.ADMIN
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pro").getBytes(StandardCharsets.UTF_8));
                out.flush();
                long start = System.nanoTime();
                RawHttp.Response r = RawHttp.read(s.getInputStream());   // no thread waited for the body meanwhile
                assertThat(r.status()).isEqualTo(408);
                assertThat(r.header("Content-Type")).isEqualTo("application/problem+json");
                assertThat(r.header("Connection")).isEqualTo("close");
                int read;
                try {
                    read = s.getInputStream().read();
                } catch (SocketException reset) {
                    read = -1;
                }
                assertThat(read).as("the server closed the connection after its 408").isEqualTo(-1);
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
                "/inbox.js%00", "/WEB-INF/web.xml", "/dev/baton/http/openapi.json", "/inbox/..%2Finbox.js", "/inbox/%2e%2e%2Fopenapi.json",
                "/inbox/../openapi.json", "/inbox/", "/inbox/inbox.html", "/inbox/api.js%00", "/inbox/API.JS", "/inbox/api.js/x"})
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
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
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
            assertThat(notUtf8.header("Content-Type")).isEqualTo("application/problem+json");
            JsonNode problem = notUtf8.asApiResponse().json();
            assertThat(problem.get("status").asInt()).isEqualTo(400);
            if (HttpTarget.current() instanceof HttpTarget.Jetty) {
                assertThat(problem.get("option").asText()).isEqualTo("path");   // Jetty hands the path on: the API names it
            } else {
                // Tomcat refuses a path that is not UTF-8 before any servlet: its error, as Baton's problem (the starter's valve)
                assertThat(problem.get("title").asText()).isEqualTo("Bad request");
            }
        }
    }
}
