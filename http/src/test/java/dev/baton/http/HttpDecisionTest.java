package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decisions over HTTP on a store that keeps them (the in-memory store; every store passes the TCK's
 * DecisionContract): edit then approve, approvals bound to
 * the digest shown, who decided, retries with an {@code Idempotency-Key}, what an already decided
 * call says, and the audit trail ({@code GET .../decisions}) filtered, paged and scoped to the
 * caller's resources. Every response is checked against {@code openapi.json} by {@link ApiClient}.
 */
class HttpDecisionTest {
    /** The typed input of {@code payments}' refund: an edit is read into it. */
    record Refund(int amount, String order) {
    }

    SnapshotStore store;
    final TestAgents.MutableClock clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
    TestAgents.FlakyModel flaky;
    Agent concierge;
    Agent payments;
    HttpTarget.Served server;
    ApiClient admin;

    @BeforeEach
    void start() {
        store = MemorySnapshotStore.create();
        assertThat(store.capabilities()).contains(StoreCapability.DECISIONS);
        concierge = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, clock, m -> flaky = new TestAgents.FlakyModel(m)).build();
        Pattern amount = Pattern.compile("(\\d+)");
        payments = Agent.builder("payments")
                .model(DeterministicModel.builder()
                        .whenUserSays("refund", "refund", text -> {
                            Matcher m = amount.matcher(text);
                            return TestAgents.ordered("amount", m.find() ? Integer.parseInt(m.group(1)) : 0, "order", "A-7");
                        })
                        .build())
                .tools(Tool.builder("refund").description("Refunds an order; always waits for approval.")
                        .input(Refund.class)
                        .requireApproval(true)
                        .execute((Refund r, ToolContext ctx) -> TestAgents.ordered("refunded", r.amount(), "order", r.order()))
                        .build())
                .store(store)
                .clock(clock)
                .build();
        BatonHttpApi api = BatonHttpApi.builder()
                .agents(concierge, payments)
                .authenticator(Authenticator.bearerTokens()
                        .token(TestServer.ADMIN, Principal.unrestricted("admin"))
                        .token(TestServer.ALICE, Principal.limitedTo("alice", "alice"))
                        .token(TestServer.BOB, Principal.limitedTo("bob", "bob"))
                        .token(TestServer.ALICE_AND_CAROL, Principal.limitedTo("alice-and-carol", "alice", "carol"))
                        .build())
                .build();
        server = HttpTarget.serve(api);
        admin = client(TestServer.ADMIN);
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        if (concierge != null) concierge.close();
        if (payments != null) payments.close();
        if (store != null) store.close();
    }

    ApiClient client(String token) {
        return new ApiClient(server.uri(), token);
    }

    String suspend(Agent agent, String at, String resourceId, String prompt) {
        clock.set(Instant.parse(at));
        var r = agent.generate(prompt, RunOptions.builder().resourceId(resourceId).threadId(resourceId + "-t").build());
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r.runId();
    }

    /** The waiting call of a run as listed over HTTP. */
    JsonNode listedCall(ApiClient client, String agentId, String runId) {
        for (JsonNode run : client.get("/agents/" + agentId + "/suspended-runs?perPage=200").json().get("runs")) {
            if (run.get("runId").asText().equals(runId)) return run.get("toolCalls").get(0);
        }
        throw new AssertionError("run " + runId + " is not listed");
    }

    static String action(String agentId, String runId, String what) {
        return "/agents/" + agentId + "/runs/" + runId + "/" + what;
    }

    List<JsonNode> decisions(ApiClient client, String query) {
        List<JsonNode> out = new ArrayList<>();
        client.get("/agents/concierge/decisions" + query).json().get("decisions").forEach(out::add);
        return out;
    }

    @Test
    void theListingShowsTheProposedArgumentsAndTheDigestToSendBack() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        JsonNode call = listedCall(admin, "concierge", run);
        assertThat(call.get("args").toString()).isEqualTo("{\"to\":\"Lisbon\"}");
        assertThat(call.get("approvedArgs").isNull()).isTrue();
        assertThat(call.get("digest").asText()).matches("[0-9a-f]{64}")
                .isEqualTo(concierge.listSuspendedRuns().runs().get(0).toolCalls().get(0).digest());
    }

    @Test
    void anEditedApprovalRunsTheToolWithTheEditAndRecordsWhoChangedWhat() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        String digest = listedCall(admin, "concierge", run).get("digest").asText();
        clock.set(Instant.parse("2026-06-01T10:00:00Z"));

        ApiClient.Response r = admin.post(action("concierge", run, "approve"),
                "{\"toolCallId\":\"call_1_0\",\"args\":{\"to\":\"Porto\"},\"digest\":\"" + digest + "\",\"reason\":\"Lisbon is full\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.eventNames()).contains("tool-call-approved", "tool-result").endsWith("outcome");
        JsonNode approved = r.events().stream().filter(e -> e.name().equals("tool-call-approved")).findFirst().orElseThrow().json();
        assertThat(approved.get("proposedArgs").toString()).isEqualTo("{\"to\":\"Lisbon\"}");
        assertThat(approved.get("approvedArgs").toString()).isEqualTo("{\"to\":\"Porto\"}");
        assertThat(approved.get("actor").asText()).isEqualTo("admin");
        JsonNode result = r.events().stream().filter(e -> e.name().equals("tool-result")).findFirst().orElseThrow().json();
        assertThat(result.get("result").get("booked").asText()).as("the tool ran with the edit").isEqualTo("Porto");

        List<JsonNode> trail = decisions(admin, "?runId=" + run);
        assertThat(trail).hasSize(1);
        JsonNode d = trail.get(0);
        assertThat(d.get("kind").asText()).isEqualTo("edit");
        assertThat(d.get("actor").asText()).isEqualTo("admin");
        assertThat(d.get("toolCallId").asText()).isEqualTo("call_1_0");
        assertThat(d.get("reason").asText()).isEqualTo("Lisbon is full");
        assertThat(d.get("decidedAt").asText()).isEqualTo("2026-06-01T10:00:00Z");
        assertThat(d.get("argsDigestBefore").asText()).isEqualTo(digest);
        assertThat(d.get("argsDigestAfter").asText()).isNotEqualTo(digest).matches("[0-9a-f]{64}");
        assertThat(d.has("idempotencyKey")).as("keys stay on the server").isFalse();
    }

    @Test
    void aBadEditIs400NamingTheFieldAndTheRuleAndNothingChanges() {
        String run = suspend(payments, "2026-06-01T09:00:00Z", "bob", "Refund 250 EUR");
        JsonNode before = listedCall(admin, "payments", run);
        ApiClient.Response r = admin.post(action("payments", run, "approve"),
                "{\"toolCallId\":\"call_1_0\",\"args\":{\"amount\":\"lots\",\"order\":\"A-7\"}}");
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        JsonNode p = r.json();
        assertThat(p.get("type").asText()).isEqualTo("urn:baton:problem:invalid-tool-input");
        assertThat(p.get("option").asText()).isEqualTo("args");
        assertThat(p.get("toolName").asText()).isEqualTo("refund");
        assertThat(p.get("errors").findValuesAsText("field")).contains("amount");
        assertThat(p.get("detail").asText()).contains("amount");
        assertThat(listedCall(admin, "payments", run)).as("still waiting, unchanged").isEqualTo(before);

        ApiClient.Response notAnObject = admin.post(action("payments", run, "approve"), "{\"toolCallId\":\"call_1_0\",\"args\":[1]}");
        assertThat(notAnObject.status()).isEqualTo(400);
        assertThat(notAnObject.json().get("option").asText()).isEqualTo("args");
    }

    @Test
    void aDigestOfAnotherVersionOfTheCallIs409AndNothingRuns() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        String stale = "0".repeat(64);
        ApiClient.Response r = admin.post(action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\",\"digest\":\"" + stale + "\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(409);
        assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:decision-conflict");
        assertThat(r.json().get("digest").asText()).isEqualTo(stale);
        assertThat(r.json().get("currentDigest").asText()).isEqualTo(listedCall(admin, "concierge", run).get("digest").asText());
        assertThat(concierge.listSuspendedRuns().total()).as("still waiting").isEqualTo(1);
        ApiClient.Response decline = admin.post(action("concierge", run, "decline"), "{\"toolCallId\":\"call_1_0\",\"digest\":\"" + stale + "\"}");
        assertThat(decline.status()).isEqualTo(409);
        assertThat(decisions(admin, "")).isEmpty();
    }

    @Test
    void aSecondApprovalOfADecidedCallSaysByWhomWhenAndWhatToDo() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        clock.set(Instant.parse("2026-06-01T09:30:00Z"));
        // the approval is recorded with the claim, then the process stops before the tool ran (as a crash would):
        // the run is kept, listed as interrupted
        concierge.approveToolCall(run, "call_1_0", ApproveOptions.builder().actor("admin").build()).close();
        assertThat(admin.get("/agents/concierge/suspended-runs").json().get("runs").get(0).get("interrupted").asBoolean()).isTrue();

        ApiClient.Response again = client(TestServer.ALICE).postForJson(action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\"}");
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        JsonNode p = again.json();
        assertThat(p.get("type").asText()).isEqualTo("urn:baton:problem:already-decided");
        assertThat(p.get("toolCallId").asText()).isEqualTo("call_1_0");
        assertThat(p.get("decision").asText()).isEqualTo("approve");
        assertThat(p.get("actor").asText()).isEqualTo("admin");
        assertThat(p.get("decidedAt").asText()).isEqualTo("2026-06-01T09:30:00Z");
        assertThat(p.get("next").asText()).containsIgnoringCase("continue");
        assertThat(p.get("detail").asText()).contains("admin");
    }

    @Test
    void aDecisionSentAgainWithItsKeyAnswersTheFirstOutcomeAndRunsNothingTwice() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        Map<String, String> key = Map.of("Idempotency-Key", "retry-7f3a");
        ApiClient alice = client(TestServer.ALICE);
        ApiClient.Response first = alice.send("POST", action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\"}",
                "text/event-stream", key);
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.header("Idempotency-Replayed")).isNull();
        assertThat(first.eventNames()).contains("tool-result");

        ApiClient.Response retry = alice.send("POST", action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\"}",
                "application/json", key);
        assertThat(retry.status()).as(retry.body()).isEqualTo(200);
        assertThat(retry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(retry.json().get("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(retry.json().get("events").findValuesAsText("type")).doesNotContain("tool-result");
        assertThat(decisions(admin, "?runId=" + run)).hasSize(1).first().satisfies(d -> assertThat(d.get("actor").asText()).isEqualTo("alice"));

        // without the key, a second approval is an error that says what happened
        ApiClient.Response plain = alice.postForJson(action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\"}");
        assertThat(plain.status()).isIn(404, 409);
    }

    @Test
    void keysAreScopedToThePrincipal() {
        String alices = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        String bobs = suspend(concierge, "2026-06-01T09:05:00Z", "bob", "Book a flight to Oslo");
        Map<String, String> key = Map.of("Idempotency-Key", "same-key");
        clock.set(Instant.parse("2026-06-01T10:00:00Z"));
        assertThat(client(TestServer.ALICE).send("POST", action("concierge", alices, "approve"), "{\"toolCallId\":\"call_1_0\"}",
                "application/json", key).json().get("outcome").asText()).isEqualTo("COMPLETED");
        clock.set(Instant.parse("2026-06-01T10:01:00Z"));
        ApiClient.Response bob = client(TestServer.BOB).send("POST", action("concierge", bobs, "decline"),
                "{\"toolCallId\":\"call_1_0\",\"reason\":\"no\"}", "application/json", key);
        assertThat(bob.header("Idempotency-Replayed")).as("bob's key is not alice's").isNull();
        assertThat(bob.json().get("events").findValuesAsText("type")).contains("tool-output-denied");
        assertThat(decisions(admin, "")).extracting(d -> d.get("actor").asText() + " " + d.get("kind").asText())
                .containsExactly("bob decline", "alice approve");
    }

    @Test
    void aKeyOnAnotherResourcesEndedRunAnswersLikeAMissingRun() {
        String bobs = suspend(concierge, "2026-06-01T09:00:00Z", "bob", "Book a flight to Oslo");
        Map<String, String> key = Map.of("Idempotency-Key", "k1");
        assertThat(client(TestServer.BOB).send("POST", action("concierge", bobs, "approve"), "{\"toolCallId\":\"call_1_0\"}",
                "application/json", key).json().get("outcome").asText()).isEqualTo("COMPLETED");
        ApiClient.Response alice = client(TestServer.ALICE).send("POST", action("concierge", bobs, "approve"),
                "{\"toolCallId\":\"call_1_0\"}", "application/json", key);
        assertThat(alice.status()).isEqualTo(404);
        assertThat(alice.json().get("type").asText()).isEqualTo("urn:baton:problem:run-not-found");
        assertThat(alice.body()).doesNotContain("bob");
        ApiClient.Response bobAgain = client(TestServer.BOB).send("POST", action("concierge", bobs, "approve"),
                "{\"toolCallId\":\"call_1_0\"}", "application/json", key);
        assertThat(bobAgain.header("Idempotency-Replayed")).as("bob's own retry").isEqualTo("true");
    }

    @Test
    void aBadKeyIs400NamingTheHeader() {
        String run = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        ApiClient.Response r = admin.send("POST", action("concierge", run, "approve"), "{\"toolCallId\":\"call_1_0\"}",
                "application/json", Map.of("Idempotency-Key", "x".repeat(129)));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("option").asText()).isEqualTo("Idempotency-Key");
        assertThat(concierge.listSuspendedRuns().total()).isEqualTo(1);
    }

    @Test
    void everyKindOfDecisionRecordsTheCallerAsItsActor() {
        String declined = suspend(concierge, "2026-06-01T09:00:00Z", "alice", "Book a flight to Lisbon");
        String resumed = suspend(concierge, "2026-06-01T09:10:00Z", "alice", "Take my passport number");
        String cancelled = suspend(concierge, "2026-06-01T09:20:00Z", "carol", "Book a flight to Rome");
        String discarded = suspend(concierge, "2026-06-01T09:30:00Z", "carol", "Book a flight to Oslo");
        ApiClient ac = client(TestServer.ALICE_AND_CAROL);
        clock.set(Instant.parse("2026-06-02T08:00:00Z"));
        ac.postForJson(action("concierge", declined, "decline"), "{\"toolCallId\":\"call_1_0\",\"reason\":\"Too dear\"}");
        clock.set(Instant.parse("2026-06-02T08:01:00Z"));
        ac.postForJson(action("concierge", resumed, "resume"), "{\"resumeData\":{\"passportNumber\":\"X1234567\"}}");
        clock.set(Instant.parse("2026-06-02T08:02:00Z"));
        ac.postForJson(action("concierge", cancelled, "cancel"), "{\"reason\":\"Trip called off\"}");
        clock.set(Instant.parse("2026-06-02T08:03:00Z"));
        assertThat(ac.delete("/agents/concierge/runs/" + discarded).status()).isEqualTo(204);

        List<JsonNode> trail = decisions(admin, "?actor=alice-and-carol");
        assertThat(trail).extracting(d -> d.get("kind").asText()).containsExactly("discard", "cancel", "resume", "decline");
        assertThat(trail).extracting(d -> d.get("actor").asText()).containsOnly("alice-and-carol");
        assertThat(trail.get(1).get("reason").asText()).isEqualTo("Trip called off");
        assertThat(trail.get(3).get("reason").asText()).isEqualTo("Too dear");
        assertThat(trail.get(0).get("toolCallId").isNull()).as("a decision on the whole run").isTrue();
    }

    @Test
    void theTrailIsFilteredPagedByTheCursorAndScopedToTheCallersResources() {
        List<String> runs = new ArrayList<>();
        String[] owners = {"alice", "bob", "carol", "alice", "bob", "carol", "alice"};
        for (int i = 0; i < owners.length; i++) {
            runs.add(suspend(concierge, "2026-06-01T09:0" + i + ":00Z", owners[i], "Book a flight to Lima"));
        }
        for (int i = 0; i < runs.size(); i++) {
            clock.set(Instant.parse("2026-06-0" + (2 + i % 3) + "T10:0" + i + ":00Z"));
            admin.postForJson(action("concierge", runs.get(i), "decline"), "{\"toolCallId\":\"call_1_0\"}");
        }
        List<JsonNode> all = decisions(admin, "");
        assertThat(all).hasSize(7);
        List<String> times = all.stream().map(d -> d.get("decidedAt").asText()).toList();
        assertThat(times).as("newest first").isSortedAccordingTo(java.util.Comparator.reverseOrder());

        // filters: resource, thread, actor, run, and inclusive days
        assertThat(decisions(admin, "?resourceId=bob")).extracting(d -> d.get("resourceId").asText()).containsOnly("bob").hasSize(2);
        assertThat(decisions(admin, "?threadId=carol-t")).hasSize(2);
        assertThat(decisions(admin, "?actor=nobody")).isEmpty();
        assertThat(decisions(admin, "?runId=" + runs.get(3))).hasSize(1);
        assertThat(decisions(admin, "?from=2026-06-03&to=2026-06-03")).extracting(d -> d.get("decidedAt").asText())
                .allMatch(t -> t.startsWith("2026-06-03")).hasSize(2);

        // the cursor: three pages of 3, 3, 1, none twice
        List<String> paged = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 5; page++) {
            JsonNode p = admin.get("/agents/concierge/decisions?perPage=3" + (cursor == null ? "" : "&cursor=" + cursor)).json();
            p.get("decisions").forEach(d -> paged.add(d.get("decisionId").asText()));
            cursor = p.get("nextCursor").isNull() ? null : p.get("nextCursor").asText();
            if (cursor == null) break;
        }
        assertThat(paged).containsExactlyElementsOf(all.stream().map(d -> d.get("decisionId").asText()).toList());

        // a principal sees only its resources' decisions; several are merged in order, and paged alike
        assertThat(decisions(client(TestServer.ALICE), "")).extracting(d -> d.get("resourceId").asText()).containsOnly("alice").hasSize(3);
        assertThat(decisions(client(TestServer.ALICE), "?resourceId=bob")).as("another resource: none").isEmpty();
        ApiClient ac = client(TestServer.ALICE_AND_CAROL);
        List<JsonNode> merged = decisions(ac, "");
        assertThat(merged).extracting(d -> d.get("resourceId").asText()).containsOnly("alice", "carol").hasSize(5);
        assertThat(merged).extracting(d -> d.get("decisionId").asText()).containsExactlyElementsOf(all.stream()
                .filter(d -> !d.get("resourceId").asText().equals("bob")).map(d -> d.get("decisionId").asText()).toList());
        List<String> mergedPaged = new ArrayList<>();
        cursor = null;
        for (int page = 0; page < 5; page++) {
            JsonNode p = ac.get("/agents/concierge/decisions?perPage=2" + (cursor == null ? "" : "&cursor=" + cursor)).json();
            p.get("decisions").forEach(d -> mergedPaged.add(d.get("decisionId").asText()));
            cursor = p.get("nextCursor").isNull() ? null : p.get("nextCursor").asText();
            if (cursor == null) break;
        }
        assertThat(mergedPaged).containsExactlyElementsOf(merged.stream().map(d -> d.get("decisionId").asText()).toList());
        assertThat(concierge.listDecisions(AgentListDecisionsOptions.builder().resourceId("bob").build()).items()).hasSize(2);
    }

    @Test
    void badQueriesAre400NamingTheParameter() {
        assertThat(admin.get("/agents/concierge/decisions?perPage=0").json().get("option").asText()).isEqualTo("perPage");
        assertThat(admin.get("/agents/concierge/decisions?cursor=nope").json().get("option").asText()).isEqualTo("cursor");
        assertThat(admin.get("/agents/concierge/decisions?from=yesterday").json().get("option").asText()).isEqualTo("from");
        assertThat(admin.get("/agents/concierge/decisions?from=2026-06-03&to=2026-06-02").json().get("option").asText()).isEqualTo("from");
        assertThat(admin.get("/agents/concierge/decisions?kind=edit").json().get("option").asText()).isEqualTo("kind");
        assertThat(client(TestServer.ALICE).get("/agents/concierge/decisions?resourceId=bob&cursor=nope").status())
                .as("a bad cursor is a 400 for another resource too").isEqualTo(400);
    }

    @Test
    void aStoreThatKeepsNoDecisionsAnswers501AndDecisionsStillWork() {
        try (TestServer t = new TestServer(new HttpApiTest.FailingStore(dev.baton.store.memory.MemorySnapshotStore.create()),
                BatonHttpApi.DEFAULT_MAX_BODY_BYTES, java.time.Duration.ofSeconds(30))) {
            assertThat(t.store.capabilities()).doesNotContain(StoreCapability.DECISIONS);
            ApiClient.Response r = t.admin().get("/agents/concierge/decisions");
            assertThat(r.status()).isEqualTo(501);
            assertThat(r.json().get("type").asText()).isEqualTo("urn:baton:problem:decisions-unsupported");
            assertThat(r.body()).as("the store's description stays in the log").doesNotContain("secret-host");
            String run = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "a", "Book a flight to Lisbon");
            ApiClient.Response approved = t.admin().send("POST", "/agents/concierge/runs/" + run + "/approve",
                    "{\"toolCallId\":\"call_1_0\",\"args\":{\"to\":\"Porto\"}}", "application/json",
                    Map.of("Idempotency-Key", "ignored-here"));
            assertThat(approved.status()).as("the key is ignored: nothing could replay it").isEqualTo(200);
            assertThat(approved.json().get("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(approved.json().get("events").findValuesAsText("booked")).containsExactly("Porto");
        }
    }
}
