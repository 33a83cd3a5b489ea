package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.StorageException;
import dev.baton.agent.Agent;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The API end to end over a real JDK server on loopback. Every response is also checked against
 * {@code openapi.json} by {@link ApiClient}.
 */
class HttpApiTest {
    TestServer t;
    ApiClient admin;

    @BeforeEach
    void start() {
        t = new TestServer();
        admin = t.admin();
    }

    @AfterEach
    void stop() {
        t.close();
    }

    static String approve(String toolCallId) {
        return "{\"toolCallId\":\"" + toolCallId + "\"}";
    }

    String runs(String runId) {
        return "/agents/concierge/runs/" + runId;
    }

    @Nested
    class Discovery {
        @Test
        void listsTheAgentsWithTheirTools() {
            JsonNode agents = admin.get("/agents").json().get("agents");
            assertThat(agents).hasSize(2);
            assertThat(agents.get(0).get("id").asText()).isEqualTo("concierge");
            assertThat(agents.get(0).get("tools").findValuesAsText("name")).containsExactly("askPassportNumber", "bookFlight", "refund");
        }

        @Test
        void instructionsAndToolDescriptionsAreShownOnlyToUnrestrictedPrincipalsByDefault() {
            JsonNode full = admin.get("/agents").json().get("agents").get(0);
            assertThat(full.get("instructions").asText()).contains("You book flights");
            assertThat(full.get("tools").findValuesAsText("description")).allSatisfy(d -> assertThat(d).isNotBlank());

            JsonNode limited = t.client(TestServer.ALICE).get("/agents").json().get("agents").get(0);
            assertThat(limited.get("id").asText()).isEqualTo("concierge");
            assertThat(limited.get("instructions").isNull()).as(limited.toString()).isTrue();
            assertThat(limited.get("tools").findValuesAsText("name")).containsExactly("askPassportNumber", "bookFlight", "refund");
            assertThat(limited.get("tools").findValues("description")).allSatisfy(d -> assertThat(d.isNull()).isTrue());
            assertThat(limited.toString()).doesNotContain("You book flights", "waits for approval");

            // configurable: shown to every principal
            BatonHttpApi open = BatonHttpApi.builder().agents(t.concierge).authenticator(Authenticator.bearerTokens()
                    .token(TestServer.ALICE, Principal.limitedTo("alice", "alice")).build()).agentDetailsForRestricted(true).build();
            try (HttpTarget.Served s = HttpTarget.serve(open)) {
                JsonNode shown = new ApiClient(s.uri(), TestServer.ALICE).get("/agents").json().get("agents").get(0);
                assertThat(shown.get("instructions").asText()).contains("You book flights");
            }
        }

        @Test
        void meNamesThePrincipalAndItsResources() {
            assertThat(admin.get("/me").json().toString()).isEqualTo("{\"name\":\"admin\",\"resourceIds\":null,\"roles\":[]}");
            assertThat(t.client(TestServer.ALICE_AND_CAROL).get("/me").json().toString())
                    .isEqualTo("{\"name\":\"alice-and-carol\",\"resourceIds\":[\"alice\",\"carol\"],\"roles\":[]}");
        }

        @Test
        void servesTheInboxPageAndTheOpenApiDocumentWithoutCredentials() {
            ApiClient anonymous = t.client(null);
            ApiClient.Response page = anonymous.get("/");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.contentType()).startsWith("text/html");
            assertThat(page.body()).contains("<title>Baton inbox</title>", "inbox.js");
            assertThat(page.header("Content-Security-Policy")).contains("script-src 'self'", "frame-ancestors 'none'");
            assertThat(anonymous.get("/inbox.js").contentType()).startsWith("text/javascript");
            assertThat(anonymous.get("/inbox.css").contentType()).startsWith("text/css");
            assertThat(page.body()).contains("<link rel=\"icon\" href=\"favicon.svg\" type=\"image/svg+xml\">");
            ApiClient.Response icon = anonymous.get("/favicon.svg");
            assertThat(icon.contentType()).isEqualTo("image/svg+xml");
            assertThat(icon.body()).startsWith("<svg ").doesNotContain("<script");
            assertThat(icon.header("Content-Security-Policy")).as("opened on its own, it runs nothing")
                    .isEqualTo("default-src 'none'; frame-ancestors 'none'");
            assertThat(anonymous.get("/openapi.json").json().get("openapi").asText()).isEqualTo("3.1.0");
        }

        @Test
        void theInboxIsAModuleWhoseImportsAreAllServedAsJavaScript() {
            ApiClient anonymous = t.client(null);
            assertThat(anonymous.get("/").body()).contains("<script type=\"module\" src=\"inbox.js\"></script>");
            // every module reachable from inbox.js by its static imports, each resolved against its importer
            Pattern imports = Pattern.compile("(?m)^import .* from '(\\./[^']+)';$");
            Deque<String> todo = new ArrayDeque<>(List.of("/inbox.js"));
            Set<String> served = new TreeSet<>();
            while (!todo.isEmpty()) {
                String path = todo.pop();
                if (!served.add(path)) continue;
                ApiClient.Response module = anonymous.get(path);
                assertThat(module.status()).as(path).isEqualTo(200);
                // Jetty writes "; charset=", Tomcat ";charset=": the same media type and charset (RFC 9110 8.3.1)
                assertThat(module.contentType()).as(path).isEqualToIgnoringWhitespace("text/javascript; charset=utf-8");
                assertThat(module.header("X-Content-Type-Options")).isEqualTo("nosniff");
                Matcher m = imports.matcher(module.body());
                while (m.find()) todo.push(URI.create("http://x" + path).resolve(m.group(1)).getPath());
            }
            List<String> modules = DocumentHandler.MODULES.stream().map(f -> "/inbox/" + f).toList();
            assertThat(served).as("imported: exactly the modules served").containsExactlyInAnyOrderElementsOf(
                    Stream.concat(Stream.of("/inbox.js"), modules.stream()).toList());
            JsonNode documented = OpenApiDocument.get().root.at("/paths/~1inbox~1{file}/get/parameters/0/schema/enum");
            List<String> names = new ArrayList<>();
            documented.forEach(n -> names.add(n.asText()));
            assertThat(names).as("openapi.json lists the modules").containsExactlyInAnyOrderElementsOf(DocumentHandler.MODULES);
            assertThat(anonymous.get("/inbox/nope.js").status()).isEqualTo(404);
        }
    }

    @Nested
    class Listing {
        @BeforeEach
        void seed() {
            t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "alice-lisbon", "Book a flight to Lisbon");
            t.suspend(t.concierge, "2026-06-01T09:20:00Z", "alice", "alice-lisbon", "Take my passport number");
            t.suspend(t.concierge, "2026-06-02T14:30:00Z", "bob", "bob-orders", "Refund 250 EUR");
            t.suspend(t.concierge, "2026-06-03T11:00:00Z", "carol", "carol-tokyo", "Book a flight to Tokyo");
            t.suspend(t.concierge, "2026-06-05T16:40:00Z", "dave", "dave-documents", "Take my passport number");
            t.suspend(t.other, "2026-06-05T17:00:00Z", "erin", "erin-x", "Book a flight to Oslo");
        }

        JsonNode list(String query) {
            ApiClient.Response r = admin.get("/agents/concierge/suspended-runs" + query);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            return r.json();
        }

        @Test
        void listsNewestFirstWithTheTotalAndTheWaitingCalls() {
            JsonNode page = list("");
            assertThat(page.get("total").asLong()).isEqualTo(5);
            assertThat(page.get("page").asInt()).isZero();
            assertThat(page.get("perPage").asInt()).isEqualTo(BatonHttpApi.DEFAULT_PER_PAGE);
            assertThat(page.get("runs").findValuesAsText("resourceId")).containsExactly("dave", "carol", "bob", "alice", "alice");
            JsonNode dave = page.get("runs").get(0).get("toolCalls").get(0);
            assertThat(dave.get("requiresApproval").asBoolean()).isFalse();
            assertThat(dave.get("suspendPayload").get("question").asText()).isEqualTo("What is your passport number?");
            assertThat(dave.get("args").isNull()).isTrue();
            JsonNode carol = page.get("runs").get(1).get("toolCalls").get(0);
            assertThat(carol.get("toolName").asText()).isEqualTo("bookFlight");
            assertThat(carol.get("args").toString()).isEqualTo("{\"to\":\"Tokyo\"}");
            assertThat(page.get("runs").get(1).get("suspendedAt").asText()).isEqualTo("2026-06-03T11:00:00Z");
        }

        @Test
        void filtersByThreadResourceAndInclusiveCreationDates() {
            assertThat(list("?threadId=alice-lisbon").get("total").asLong()).isEqualTo(2);
            assertThat(list("?resourceId=bob").get("runs").findValuesAsText("threadId")).containsExactly("bob-orders");
            JsonNode days = list("?fromDate=2026-06-02&toDate=2026-06-03");
            assertThat(days.get("runs").findValuesAsText("resourceId")).containsExactly("carol", "bob");
            assertThat(list("?fromDate=2026-06-03T11:00:00Z&toDate=2026-06-03T11:00:00Z").get("total").asLong()).isEqualTo(1);
            assertThat(list("?threadId=alice-lisbon&resourceId=bob").get("total").asLong()).isZero();
        }

        @Test
        void pagesAreZeroBasedAndKeepTheTotal() {
            JsonNode p0 = list("?perPage=2&page=0");
            JsonNode p2 = list("?perPage=2&page=2");
            assertThat(p0.get("runs")).hasSize(2);
            assertThat(p2.get("runs")).hasSize(1);
            assertThat(p2.get("total").asLong()).isEqualTo(5);
            assertThat(list("?perPage=2&page=9").get("runs")).isEmpty();
        }

        /** An empty value is a 400 naming the parameter: read as absent, {@code ?resourceId=} listed every run. */
        @ParameterizedTest
        @ValueSource(strings = {"threadId", "resourceId", "fromDate", "toDate", "perPage", "cursor"})
        void anEmptyQueryValueIs400NamingTheParameter(String name) {
            assertInvalid("?" + name + "=", name, "is empty; leave the parameter out");
            ApiClient.Response decisions = admin.get("/agents/concierge/decisions?" + name.replace("Date", "") + "=");
            assertThat(decisions.status()).as(decisions.body()).isEqualTo(400);
        }

        @Test
        void invalidOptionsAre400NamingTheOption() {
            assertInvalid("?perPage=0", "perPage", "must be a positive integer");
            assertInvalid("?perPage=201", "perPage", "must be at most 200");
            assertInvalid("?page=-1", "page", "non-negative");
            assertInvalid("?page=two", "page", "must be an integer, was 'two'");
            assertInvalid("?fromDate=yesterday", "fromDate", "expected yyyy-MM-dd");
            assertInvalid("?fromDate=2026-06-05&toDate=2026-06-01", "fromDate", "must not be after toDate");
            assertInvalid("?threadid=x", "threadid", "unknown query parameter");
            assertInvalid("?threadId=a&threadId=b", "threadId", "given twice");
            assertInvalid("?threadId=%FF", "query", "not UTF-8");   // Jetty's decoder: no silent U+FFFD
        }

        void assertInvalid(String query, String option, String detail) {
            ApiClient.Response r = admin.get("/agents/concierge/suspended-runs" + query);
            assertThat(r.status()).as(query + " " + r.body()).isEqualTo(400);
            assertThat(r.contentType()).isEqualTo("application/problem+json");
            assertThat(r.json().get("option").asText()).isEqualTo(option);
            assertThat(r.json().get("detail").asText()).startsWith(option + ": ").contains(detail);
            assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:invalid-option");
        }

        @Test
        void theCursorContinuesAfterThePageEvenWhenRunsComeAndGo() {
            JsonNode first = list("?perPage=2");
            assertThat(first.get("runs").findValuesAsText("resourceId")).containsExactly("dave", "carol");
            assertThat(first.get("page").asInt()).isZero();
            String cursor = first.get("nextCursor").asText();
            assertThat(cursor).isNotBlank();

            // meanwhile: bob's run (next in line) ends, and a newer run arrives
            String bob = t.concierge.listSuspendedRuns().runs().stream().filter(r -> "bob".equals(r.resourceId())).findFirst()
                    .orElseThrow().runId();
            t.concierge.declineToolCall(bob, "call_1_0", "no").result();
            t.suspend(t.concierge, "2026-06-07T08:00:00Z", "zoe", "zoe-new", "Book a flight to Oslo");

            JsonNode second = list("?perPage=2&cursor=" + cursor);
            assertThat(second.get("runs").findValuesAsText("threadId")).containsExactly("alice-lisbon", "alice-lisbon");
            assertThat(second.get("page").isNull()).as("a cursor page has no number").isTrue();
            assertThat(second.get("total").asLong()).as("the total ignores the cursor").isEqualTo(5);
            JsonNode third = list("?perPage=2&cursor=" + second.get("nextCursor").asText());
            assertThat(third.get("runs")).isEmpty();
            assertThat(third.get("nextCursor").isNull()).isTrue();
        }

        @Test
        void numberedPagesHaveANextCursorToo() {
            JsonNode p1 = list("?perPage=2&page=1");
            assertThat(p1.get("runs").findValuesAsText("resourceId")).containsExactly("bob", "alice");
            JsonNode after = list("?perPage=2&cursor=" + p1.get("nextCursor").asText());
            assertThat(after.get("runs").findValuesAsText("resourceId")).containsExactly("alice");
            assertThat(after.get("nextCursor").isNull()).as("not a full page: the last").isTrue();
        }

        @Test
        void aBadCursorIs400NamingIt() {
            assertInvalid("?cursor=not-a-cursor", "cursor", "is not a cursor this Baton gave");
            String cursor = list("?perPage=2").get("nextCursor").asText();
            assertInvalid("?page=1&cursor=" + cursor, "cursor", "cannot be combined with page");
            assertInvalid("?cursor=a&cursor=b", "cursor", "given twice");
        }

        @Test
        void anUnknownAgentIs404() {
            ApiClient.Response r = admin.get("/agents/nobody/suspended-runs");
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.json().get("title").asText()).isEqualTo("Agent not found");
        }
    }

    @Nested
    class Actions {
        @Test
        void approveStreamsTheEventsThenTheOutcome() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Lisbon");
            ApiClient.Response r = admin.post(runs(run) + "/approve", approve("call_1_0"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.contentType()).startsWith("text/event-stream");
            assertThat(r.eventNames()).startsWith("start", "tool-result").endsWith("finish", "outcome");
            ApiClient.Event result = r.events().get(1);
            assertThat(result.json().get("result").toString()).isEqualTo("{\"booked\":\"Lisbon\",\"confirmation\":\"BK-1\"}");
            assertThat(r.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
        }

        @Test
        void declineTellsTheModelTheReasonAndTheToolNeverRuns() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "bob", "b", "Refund 250 EUR");
            ApiClient.Response r = admin.post(runs(run) + "/decline", "{\"toolCallId\":\"call_1_0\",\"reason\":\"Already refunded\"}");
            assertThat(r.eventNames()).contains("tool-output-denied").doesNotContain("tool-result");
            ApiClient.Event denied = r.events().stream().filter(e -> e.name().equals("tool-output-denied")).findFirst().orElseThrow();
            assertThat(denied.json().get("reason").asText()).isEqualTo("Already refunded");
            assertThat(r.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
        }

        @Test
        void resumeHandsTheDataToTheTool() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "dave", "d", "Take my passport number");
            ApiClient.Response r = admin.post(runs(run) + "/resume", "{\"resumeData\":{\"passportNumber\":\"X1234567\"}}");
            ApiClient.Event result = r.events().stream().filter(e -> e.name().equals("tool-result")).findFirst().orElseThrow();
            assertThat(result.json().get("result").toString()).isEqualTo("{\"passportOnFile\":\"*****567\"}");
            assertThat(r.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
        }

        @Test
        void acceptJsonReturnsTheDrainedResult() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            ApiClient.Response r = admin.postForJson(runs(run) + "/approve", approve("call_1_0"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentType()).isEqualTo("application/json");
            assertThat(r.json().get("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(r.json().get("events").findValuesAsText("type")).startsWith("start", "tool-result").endsWith("finish");
            assertThat(r.json().get("error").isNull()).isTrue();
        }

        @Test
        void startingARunStreamsItUntilItSuspends() {
            ApiClient.Response r = admin.post("/agents/concierge/runs",
                    "{\"prompt\":\"Book a flight to Oslo\",\"threadId\":\"t-1\",\"resourceId\":\"zoe\"}");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.eventNames()).containsExactly("start", "step-start", "tool-call", "tool-call-approval", "outcome");
            JsonNode outcome = r.last().json();
            assertThat(outcome.get("outcome").asText()).isEqualTo("SUSPENDED");
            assertThat(outcome.get("waitingCalls").get(0).get("toolName").asText()).isEqualTo("bookFlight");
            assertThat(t.concierge.listSuspendedRuns().runs()).singleElement()
                    .satisfies(run -> assertThat(run.resourceId()).isEqualTo("zoe"));
        }

        @Test
        void aRunThatCompletesAtOnceSaysSo() {
            ApiClient.Response r = admin.postForJson("/agents/concierge/runs", "{\"prompt\":\"Refund 40 EUR\"}");
            assertThat(r.json().get("outcome").asText()).isEqualTo("COMPLETED");
        }

        @Test
        void bodyFieldsAreChecked() {
            assertProblem(admin.post("/agents/concierge/runs", "{}"), 400, "prompt");
            assertProblem(admin.post("/agents/concierge/runs", "{\"prompt\":\"x\",\"colour\":\"red\"}"), 400, "colour");
            assertProblem(admin.post("/agents/concierge/runs", "{\"prompt\":\"x\",\"maxSteps\":0}"), 400, "maxSteps");
            assertProblem(admin.post("/agents/concierge/runs", "{\"prompt\":42}"), 400, "prompt");
            assertProblem(admin.post(runs("r") + "/approve", "{}"), 400, "toolCallId");
            assertProblem(admin.post(runs("r") + "/resume", "{\"toolCallId\":\"c\"}"), 400, "resumeData");
            assertProblem(admin.post("/agents/concierge/runs", "[1,2]"), 400, "body");
            assertProblem(admin.post("/agents/concierge/runs", ""), 400, "body");
        }

        void assertProblem(ApiClient.Response r, int status, String option) {
            assertThat(r.status()).as(r.body()).isEqualTo(status);
            assertThat(r.json().get("option").asText()).as(r.body()).isEqualTo(option);
        }

        @Test
        void aNonJsonBodyIs415() {
            HttpRequest request = HttpRequest.newBuilder(t.server.uri().resolve("agents/concierge/runs"))
                    .header("Authorization", "Bearer " + TestServer.ADMIN)
                    .header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("prompt=hi")).build();
            ApiClient.Response r = admin.send("POST", "/agents/concierge/runs", request);
            assertThat(r.status()).isEqualTo(415);
        }

        @Test
        void aWrongMethodIs405WithAllow() {
            ApiClient.Response r = admin.send("DELETE", "/agents", null, null);
            assertThat(r.status()).isEqualTo(405);
            assertThat(r.header("Allow")).isEqualTo("GET");
        }

        @Test
        void anUnknownPathIs404() {
            assertThat(admin.get("/agents/concierge/nothing-here").status()).isEqualTo(404);
            assertThat(admin.get("/agents/").status()).isEqualTo(404);
        }
    }


    @Nested
    class RunFields {
        @Test
        void aListedRunShowsItsCreationSuspensionAndExpiry() {
            t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Lisbon");
            t.clock.set(Instant.parse("2026-06-01T10:00:00Z"));
            t.concierge.generate("Refund 250 EUR", dev.baton.agent.RunOptions.builder().resourceId("bob")
                    .waitTimeout(Duration.ofHours(2)).build());
            t.clock.set(Instant.parse("2026-06-01T10:30:00Z"));

            JsonNode page = admin.get("/agents/concierge/suspended-runs").json();
            assertThat(page.get("asOf").asText()).as("the agent's clock").isEqualTo("2026-06-01T10:30:00Z");
            JsonNode bob = page.get("runs").get(0);
            assertThat(bob.get("createdAt").asText()).isEqualTo("2026-06-01T10:00:00Z");
            assertThat(bob.get("suspendedAt").asText()).isEqualTo("2026-06-01T10:00:00Z");
            assertThat(bob.get("expiresAt").asText()).isEqualTo("2026-06-01T12:00:00Z");
            assertThat(bob.get("toolCalls").get(0).get("expiresAt").asText()).isEqualTo("2026-06-01T12:00:00Z");
            assertThat(bob.get("interrupted").asBoolean()).isFalse();
            assertThat(bob.get("interruption").isNull()).isTrue();
            assertThat(bob.get("parentRunId").isNull()).isTrue();
            JsonNode alice = page.get("runs").get(1);
            assertThat(alice.get("createdAt").asText()).isEqualTo("2026-06-01T09:00:00Z");
            assertThat(alice.get("expiresAt").isNull()).as("no wait timeout: never expires").isTrue();
            assertThat(alice.get("toolCalls").get(0).get("expiresAt").isNull()).isTrue();
        }

        @Test
        void aSubagentsInnerRunNamesItsSupervisorsRunAndCannotBeActedOnAlone() {
            Agent desk = TestAgents.concierge("flight-desk", t.store, t.clock);
            Agent supervisor = TestAgents.supervisor("travel-desk", desk, t.store, t.clock);
            String outer = supervisor.generate("Book a flight to Oslo", dev.baton.agent.RunOptions.DEFAULT).runId();
            BatonHttpApi api = BatonHttpApi.builder().agents(supervisor, desk).authenticator(Authenticator.anonymous()).build();
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
                ApiClient c = new ApiClient(s.uri(), null);
                JsonNode inner = c.get("/agents/flight-desk/suspended-runs").json().get("runs").get(0);
                assertThat(inner.get("parentRunId").asText()).isEqualTo(outer);
                String innerPath = "/agents/flight-desk/runs/" + inner.get("runId").asText();
                for (ApiClient.Response r : List.of(c.delete(innerPath), c.post(innerPath + "/cancel", "{}"),
                        c.post(innerPath + "/continue", "{}"), c.post(innerPath + "/approve", approve("call_1_0")))) {
                    assertThat(r.status()).as(r.body()).isEqualTo(422);
                    assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:resume-mismatch");
                }
                assertThat(desk.listSuspendedRuns().total()).as("untouched").isEqualTo(1);
                // the supervisor's run is the one to act on: cancelling it removes the inner run too
                ApiClient.Response cancelled = c.postForJson("/agents/travel-desk/runs/" + outer + "/cancel", "{}");
                assertThat(cancelled.json().get("outcome").asText()).isEqualTo("CANCELLED");
                assertThat(desk.listSuspendedRuns().total()).isZero();
            }
        }
    }

    @Nested
    class Lifecycle {
        @Test
        void aModelFailureAfterAnApprovalInterruptsTheRunAndContinueGoesOn() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Lisbon");
            t.flaky.failNext(1);
            ApiClient.Response approved = admin.post(runs(run) + "/approve", approve("call_1_0"));
            assertThat(approved.status()).as("the action succeeded; the run stopped").isEqualTo(200);
            assertThat(approved.eventNames()).startsWith("start", "tool-result").contains("error").endsWith("finish", "outcome");
            JsonNode outcome = approved.last().json();
            assertThat(outcome.get("outcome").asText()).isEqualTo("INTERRUPTED");
            assertThat(outcome.get("error").asText()).contains("was interrupted", "provider answered 503", "continueRun");

            JsonNode listed = admin.get("/agents/concierge/suspended-runs").json().get("runs").get(0);
            assertThat(listed.get("runId").asText()).isEqualTo(run);
            assertThat(listed.get("interrupted").asBoolean()).isTrue();
            assertThat(listed.get("interruption").asText()).contains("the model failed", "provider answered 503");
            assertThat(listed.get("toolCalls")).as("it waits for nobody").isEmpty();

            ApiClient.Response continued = admin.send("POST", runs(run) + "/continue", null, "text/event-stream");
            assertThat(continued.status()).as(continued.body()).isEqualTo(200);
            assertThat(continued.eventNames()).startsWith("start").endsWith("finish", "outcome")
                    .as("the stored tool result is reused").doesNotContain("tool-result", "tool-call");
            assertThat(continued.last().json().get("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
        }

        @Test
        void continueAnswersJsonAndTakesAnEmptyObject() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            t.flaky.failNext(1);
            assertThat(admin.postForJson(runs(run) + "/approve", approve("call_1_0")).json().get("outcome").asText())
                    .isEqualTo("INTERRUPTED");
            assertThat(admin.post(runs(run) + "/continue", "{\"force\":true}").json().get("option").asText()).isEqualTo("force");
            ApiClient.Response r = admin.postForJson(runs(run) + "/continue", "{}");
            assertThat(r.contentType()).isEqualTo("application/json");
            assertThat(r.json().get("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(r.json().get("error").isNull()).isTrue();
        }

        @Test
        void continuingARunThatWaitsForAPersonIs422AndAMissingOne404() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            ApiClient.Response waits = admin.post(runs(run) + "/continue", "");
            assertThat(waits.status()).isEqualTo(422);
            assertThat(waits.json().get("detail").asText()).contains("approve, decline or resume those calls");
            assertThat(admin.post(runs("no-such-run") + "/continue", "").status()).isEqualTo(404);
            // and the other way round: resuming a run that waits for nobody says to continue it
            t.flaky.failNext(1);
            admin.post(runs(run) + "/approve", approve("call_1_0"));
            ApiClient.Response resume = admin.post(runs(run) + "/resume", "{\"resumeData\":{}}");
            assertThat(resume.status()).isEqualTo(422);
            assertThat(resume.json().get("detail").asText()).contains("continueRun");
        }

        @Test
        void cancelEndsTheRunWithTheReasonAsEvents() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "bob", "b", "Refund 250 EUR");
            ApiClient.Response r = admin.post(runs(run) + "/cancel", "{\"reason\":\"Customer withdrew the request\"}");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentType()).startsWith("text/event-stream");
            assertThat(r.eventNames()).containsExactly("start", "cancelled", "finish", "outcome");
            assertThat(r.events().get(1).json().get("reason").asText()).isEqualTo("Customer withdrew the request");
            assertThat(r.events().get(2).json().get("finishReason").asText()).isEqualTo("cancelled");
            assertThat(r.last().json().get("outcome").asText()).isEqualTo("CANCELLED");
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
            ApiClient.Response again = admin.post(runs(run) + "/cancel", "{}");
            assertThat(again.status()).as("gone, and the cancel is recorded").isEqualTo(409);
            assertThat(again.json().get("decision").asText()).isEqualTo("cancel");
            assertThat(admin.post(runs("never-was") + "/cancel", "{}").status()).isEqualTo(404);
        }

        @Test
        void cancelWithoutABodyAnswersJsonWithTheDefaultReason() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "dave", "d", "Take my passport number");
            ApiClient.Response r = admin.send("POST", runs(run) + "/cancel", null, "application/json");
            assertThat(r.json().get("outcome").asText()).isEqualTo("CANCELLED");
            assertThat(r.json().get("events").findValuesAsText("type")).containsExactly("start", "cancelled", "finish");
            assertThat(r.json().get("events").get(1).get("reason").asText()).isEqualTo("cancelled");
            assertThat(admin.post(runs(run) + "/cancel", "{\"reason\":7}").json().get("option").asText()).isEqualTo("reason");
        }

        @Test
        void anInterruptedRunCanBeCancelledToo() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            t.flaky.failNext(1);
            admin.post(runs(run) + "/approve", approve("call_1_0"));
            assertThat(admin.postForJson(runs(run) + "/cancel", "{\"reason\":\"gave up\"}").json().get("outcome").asText())
                    .isEqualTo("CANCELLED");
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
        }

        @Test
        void discardRemovesTheRunWith204() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            String interrupted = t.suspend(t.concierge, "2026-06-01T09:10:00Z", "alice", "a", "Book a flight to Oslo");
            t.flaky.failNext(1);
            admin.post(runs(interrupted) + "/approve", approve("call_1_0"));
            for (String id : List.of(run, interrupted)) {
                ApiClient.Response r = admin.delete(runs(id));
                assertThat(r.status()).isEqualTo(204);
                assertThat(r.body()).isEmpty();
                assertThat(r.header("Cache-Control")).isEqualTo("no-store");
            }
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
            ApiClient.Response again = admin.delete(runs(run));
            assertThat(again.status()).as("the discard is recorded: a second one says so").isEqualTo(409);
            assertThat(again.json().get("type").asText()).isEqualTo("urn:baton:problem:already-decided");
            assertThat(again.json().get("decision").asText()).isEqualTo("discard");
            assertThat(again.json().get("actor").asText()).isEqualTo("admin");
            assertThat(admin.delete(runs("never-was")).status()).isEqualTo(404);
        }

        @Test
        void anUnreadableRunIsListedAsInterruptedAndCanBeDiscarded() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            RunSnapshot s = t.store.find(run).orElseThrow();
            RunSnapshot broken = s.toBuilder().version(s.version() + 1).lease(null, null)
                    .payload("{not a snapshot").summary("{not a summary").build();
            assertThat(t.store.compareAndSet(s.version(), broken)).isTrue();
            JsonNode listed = admin.get("/agents/concierge/suspended-runs").json().get("runs").get(0);
            assertThat(listed.get("interrupted").asBoolean()).isTrue();
            assertThat(listed.get("interruption").asText()).startsWith("its stored summary cannot be read");
            ApiClient.Response cancel = admin.post(runs(run) + "/cancel", "{}");
            assertThat(cancel.status()).isEqualTo(500);
            assertThat(cancel.json().get("type").asText()).isEqualTo("urn:baton:problem:unreadable-snapshot");
            assertThat(admin.delete(runs(run)).status()).isEqualTo(204);
            assertThat(t.concierge.listSuspendedRuns().total()).isZero();
        }
    }

    @Nested
    class Errors {
        @Test
        void aMissingRunIs404() {
            ApiClient.Response r = admin.post(runs("no-such-run") + "/approve", approve("call_1_0"));
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:run-not-found");
            assertThat(r.json().get("runId").asText()).isEqualTo("no-such-run");
        }

        @Test
        void anotherAgentsRunAnswersExactlyLikeAMissingOne() {
            String theirs = t.suspend(t.other, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            ApiClient.Response r = admin.post(runs(theirs) + "/approve", approve("call_1_0"));
            ApiClient.Response missing = admin.post(runs("x" + theirs.substring(1)) + "/approve", approve("call_1_0"));
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.body()).isEqualTo(missing.body().replace("x" + theirs.substring(1), theirs));
            assertThat(t.other.listSuspendedRuns().total()).as("untouched").isEqualTo(1);
        }

        @Test
        void anUnknownToolCallIs404() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            ApiClient.Response r = admin.post(runs(run) + "/approve", approve("call_9_9"));
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.json().get("title").asText()).isEqualTo("Tool call not found");
        }

        @Test
        void theKindOfAnswerMustMatchTheCall422() {
            String approval = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            String data = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "dave", "d", "Take my passport number");
            ApiClient.Response resumeApproval = admin.post(runs(approval) + "/resume", "{\"resumeData\":{}}");
            ApiClient.Response approveData = admin.post(runs(data) + "/approve", approve("call_1_0"));
            assertThat(resumeApproval.status()).isEqualTo(422);
            assertThat(approveData.status()).isEqualTo(422);
            assertThat(approveData.json().get("title").asText()).isEqualTo("Resume mismatch");
            assertThat(t.concierge.listSuspendedRuns().total()).as("nothing changed").isEqualTo(2);
        }

        @Test
        void aRunAnotherCallerIsResumingIs409BeforeAnyEvent() throws Exception {
            CountDownLatch toolStarted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Agent gated = TestAgents.gated("gated", t.store, toolStarted, release);
            String run = gated.generate("Launch it", dev.baton.agent.RunOptions.DEFAULT).runId();
            BatonHttpApi api = BatonHttpApi.builder().agents(gated).authenticator(Authenticator.anonymous()).build();
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                HttpRequest first = HttpRequest.newBuilder(s.uri().resolve("agents/gated/runs/" + run + "/approve"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(approve("call_1_0"))).build();
                // the winner has its response headers, so the run is claimed; its tool is running
                HttpResponse<InputStream> winner = http.send(first, HttpResponse.BodyHandlers.ofInputStream());
                assertThat(winner.statusCode()).isEqualTo(200);
                assertThat(toolStarted.await(10, TimeUnit.SECONDS)).isTrue();

                ApiClient.Response loser = new ApiClient(s.uri(), null).post("/agents/gated/runs/" + run + "/approve", approve("call_1_0"));
                assertThat(loser.status()).isEqualTo(409);
                assertThat(loser.contentType()).isEqualTo("application/problem+json");
                // the winner's approval is recorded (the store keeps decisions): the loser is told who decided and when
                assertThat(loser.json().get("title").asText()).isEqualTo("Already decided");
                assertThat(loser.json().get("actor").asText()).isEqualTo("anonymous");
                assertThat(loser.json().get("next").asText()).contains("being carried out now");
                ApiClient c = new ApiClient(s.uri(), null);
                String path = "/agents/gated/runs/" + run;
                for (ApiClient.Response held : List.of(c.post(path + "/cancel", "{\"reason\":\"late\"}"),
                        c.post(path + "/continue", "{}"), c.delete(path))) {
                    assertThat(held.status()).as(held.body()).isEqualTo(409);
                    assertThat(held.json().get("type").asText()).isEqualTo("urn:baton:problem:run-not-suspended");
                }

                release.countDown();
                String stream;
                try (InputStream in = winner.body()) {
                    stream = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                assertThat(stream).contains("event: tool-result", "\"outcome\":\"COMPLETED\"");
            } finally {
                release.countDown();
            }
        }

        @Test
        void aStoreThatIsDownIs503WithoutItsDetails() {
            FailingStore store = new FailingStore(MemorySnapshotStore.create());
            try (TestServer down = new TestServer(store, 1024, Duration.ofSeconds(30))) {
                store.down.set(true);
                ApiClient.Response list = down.admin().get("/agents/concierge/suspended-runs");
                ApiClient.Response act = down.admin().post("/agents/concierge/runs/r-1/approve", approve("call_1_0"));
                for (ApiClient.Response r : List.of(list, act)) {
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.header("Retry-After")).isEqualTo("5");
                    assertThat(r.json().get("title").asText()).isEqualTo("Store unavailable");
                    assertThat(r.body()).doesNotContain("secret-host");
                }
            }
        }

        @Test
        void aThreadOfAnotherResourceIs409WithoutNamingItsOwner() {
            // (no store on this branch keeps thread memory yet, so the mapping is checked on its own)
            Problem p = Problem.from(new dev.baton.ThreadOwnershipException("trip-7", "carol-secret", "mallory"));
            assertThat(p.status()).isEqualTo(409);
            assertThat(p.type()).isEqualTo("urn:baton:problem:thread-owned-elsewhere");
            assertThat(p.extensions()).containsEntry("option", "threadId");
            assertThat(p.detail()).contains("trip-7").doesNotContain("carol-secret");
        }

        @Test
        void aProblemsExtensionMembersKeepTheOrderTheyWereAddedIn() {
            Problem p = Problem.of(400, "x", "X", "x");
            List<String> names = List.of("option", "maxBodyBytes", "runId", "agentId", "incident", "a", "b", "c");
            for (String n : names) p = p.with(n, n);
            List<String> written = new java.util.ArrayList<>();
            p.toJson().fieldNames().forEachRemaining(written::add);
            assertThat(written.subList(4, written.size())).isEqualTo(names);
        }

        @Test
        void anAgentWithoutTheRunsToolIs500WithAPreciseTitle() {
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Rome");
            Agent lacking = Agent.builder("concierge").model(t.concierge.model()).tools(TestAgents.refund()).store(t.store).build();
            BatonHttpApi api = BatonHttpApi.builder().agents(lacking).authenticator(Authenticator.anonymous()).build();
            try (HttpTarget.Served s = HttpTarget.serve(api)) {
                ApiClient.Response r = new ApiClient(s.uri(), null).post("/agents/concierge/runs/" + run + "/approve", approve("call_1_0"));
                assertThat(r.status()).isEqualTo(500);
                assertThat(r.json().get("title").asText()).isEqualTo("Agent lacks the run's tool");
                assertThat(r.json().get("detail").asText()).contains("has no tool 'bookFlight'");
            }
            assertThat(t.concierge.listSuspendedRuns().total()).as("nothing changed").isEqualTo(1);
        }
    }

    @Nested
    class Mounting {
        @Test
        void servesUnderABasePathAndRedirectsTheBarePath() throws Exception {
            try (BatonHttpServer s = BatonHttpServer.builder(t.api).port(0).basePath("/baton").start()) {
                assertThat(s.uri().toString()).endsWith("/baton/");
                assertThat(new ApiClient(s.uri(), TestServer.ADMIN).get("/agents").status()).isEqualTo(200);
                RawHttp.Response bare = RawHttp.get(s.port(), "/baton", TestServer.ADMIN);
                assertThat(bare.status()).isEqualTo(308);
                assertThat(bare.header("Location")).isEqualTo("/baton/");
                assertThat(RawHttp.get(s.port(), "/batonx/agents", TestServer.ADMIN).status()).isEqualTo(404);
            }
        }

        @Test
        void theCoreAnswersWithoutAnyServer() {
            ServletCall.Answer r = ServletCall.send(t.api, "GET", "/agents",
                    java.util.Map.of("Authorization", "Bearer " + TestServer.ADMIN, "Host", "127.0.0.1"), new byte[0]);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).contains("\"id\":\"concierge\"");
        }
    }

    /** A store that fails like a database that went away, with a message naming its host. */
    static final class FailingStore implements SnapshotStore {
        final SnapshotStore delegate;
        final AtomicBoolean down = new AtomicBoolean();

        FailingStore(SnapshotStore delegate) {
            this.delegate = delegate;
        }

        private void check(String op) {
            if (down.get()) throw new StorageException("PostgreSQL jdbc:postgresql://secret-host/app: " + op + " failed: Connection refused");
        }

        @Override public boolean insert(RunSnapshot s) { check("insert"); return delegate.insert(s); }

        @Override public Optional<RunSnapshot> find(String runId) { check("find"); return delegate.find(runId); }

        @Override public boolean compareAndSet(long v, RunSnapshot s) { check("compare-and-set"); return delegate.compareAndSet(v, s); }

        @Override public boolean delete(String runId, long v) { check("delete"); return delegate.delete(runId, v); }

        @Override public RunPage list(RunQuery q) { check("list"); return delegate.list(q); }

        @Override
        public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
            check("list-due");
            return delegate.listDue(agentId, now, limit);
        }

        @Override
        public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
            check("renew-lease");
            return delegate.renewLease(runId, expectedVersion, owner, newExpiry);
        }

        @Override public Instant now() { return Instant.now(); }

        @Override public void close() { delegate.close(); }
    }

    static URI uri(String s) {
        return URI.create(s);
    }
}
