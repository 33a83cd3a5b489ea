package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.ApproverRule;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP a decision is taken by the caller's name and roles ({@code Approver.of(principal.name(),
 * principal.roles())}): an approver rule that asks for a role admits a principal holding it, refuses one
 * without it, counts two distinct approvals towards {@code approvals(2)} (the listing shows who approved so
 * far), and keeps the principal that started the run (recorded as its {@code startedBy}) from approving it.
 */
class ApproverRolesHttpTest {
    private static final String ALICE = "alice-requester-token-01";
    private static final String BOB = "bob-no-role-token-000001";
    private static final String MARIA = "maria-travel-token-00001";
    private static final String JOHN = "john-travel-token-000001";

    @Test
    void rolesFromThePrincipalDecideWhoMayApproveAndTwoDistinctApprovalsRunTheCallOnce() {
        try (SnapshotStore store = MemorySnapshotStore.create();
             Agent agent = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                     .approverRules(ApproverRule.builder("two travel approvers").tool("bookFlight").roles("travel").approvals(2).build())
                     .build()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(agent).authenticator(Authenticator.bearerTokens()
                    .token(ALICE, Principal.builder().name("alice").resourceIds(List.of("alice")).roles(List.of("travel")).build())
                    .token(BOB, Principal.unrestricted("bob"))
                    .token(MARIA, Principal.builder().name("maria").roles(List.of("travel", "finance")).build())
                    .token(JOHN, Principal.builder().name("john").roles(List.of("travel")).build())
                    .build()).build();
            try (HttpTarget.Served server = HttpTarget.serve(api)) {
                ApiClient alice = new ApiClient(server.uri(), ALICE);
                ApiClient bob = new ApiClient(server.uri(), BOB);
                ApiClient maria = new ApiClient(server.uri(), MARIA);
                ApiClient john = new ApiClient(server.uri(), JOHN);
                assertThat(maria.get("/me").json().toString())
                        .isEqualTo("{\"name\":\"maria\",\"resourceIds\":null,\"roles\":[\"finance\",\"travel\"]}");

                ApiClient.Response started = alice.postForJson("/agents/concierge/runs", "{\"prompt\":\"Book a flight to Rome\"}");
                assertThat(started.status()).as(started.body()).isEqualTo(200);
                String run = started.json().get("runId").asText();
                JsonNode waiting = started.json().get("waitingCalls").get(0);
                String call = waiting.get("toolCallId").asText();
                assertThat(waiting.get("approvalsNeeded").asInt()).isEqualTo(2);
                assertThat(waiting.get("approvedBy")).isEmpty();
                assertThat(agent.listSuspendedRuns().runs().get(0).startedBy()).as("the caller is the requester").isEqualTo("alice");
                String approve = "/agents/concierge/runs/" + run + "/approve";
                String body = "{\"toolCallId\":\"" + call + "\"}";

                ApiClient.Response noRole = bob.postForJson(approve, body);
                assertThat(noRole.status()).as(noRole.body()).isEqualTo(403);
                assertThat(noRole.json().get("type").asText()).isEqualTo("urn:baton:problem:not-an-approver");
                assertThat(noRole.json().get("detail").asText()).contains("'bob' holds no role");

                ApiClient.Response self = alice.postForJson(approve, body);
                assertThat(self.status()).as(self.body()).isEqualTo(403);
                assertThat(self.json().get("type").asText()).isEqualTo("urn:baton:problem:not-an-approver");
                assertThat(self.json().get("detail").asText()).contains("separation of duties");
                assertThat(agent.listDecisions(AgentListDecisionsOptions.all()).items()).as("refusals are recorded nowhere").isEmpty();

                ApiClient.Response first = maria.postForJson(approve, body);
                assertThat(first.status()).as(first.body()).isEqualTo(200);
                assertThat(first.json().get("outcome").asText()).as("one of two approvals: still waiting").isEqualTo("SUSPENDED");
                assertThat(first.json().get("waitingCalls").get(0).get("approvedBy").toString()).isEqualTo("[\"maria\"]");
                JsonNode listed = maria.get("/agents/concierge/suspended-runs").json().get("runs");
                assertThat(listed).hasSize(1);
                assertThat(listed.get(0).get("runId").asText()).isEqualTo(run);
                assertThat(listed.get(0).get("toolCalls").get(0).get("approvedBy").toString()).isEqualTo("[\"maria\"]");
                assertThat(listed.get(0).get("toolCalls").get(0).get("approvalsNeeded").asInt()).isEqualTo(2);

                ApiClient.Response twice = maria.postForJson(approve, body);
                assertThat(twice.status()).as(twice.body()).isEqualTo(403);
                assertThat(twice.json().get("detail").asText()).contains("has already approved");

                ApiClient.Response second = john.postForJson(approve, body);
                assertThat(second.status()).as(second.body()).isEqualTo(200);
                assertThat(second.json().get("outcome").asText()).isEqualTo("COMPLETED");
                assertThat(maria.get("/agents/concierge/suspended-runs").json().get("runs")).isEmpty();
                assertThat(agent.listDecisions(AgentListDecisionsOptions.all()).items())
                        .extracting(d -> d.actor()).containsExactlyInAnyOrder("maria", "john");
            }
        }
    }
    /**
     * The listing says, per caller, what they may do with each waiting call now ({@code youMay}) and
     * why not ({@code whyNot}): a principal without the rule's role sees the call read-only ("needs
     * travel"), the requester may only decline ("you started this run"), an approver who approved
     * waits for the next ("you approved; waiting for 1 more"); the audit trail lists each partial
     * approval with its actor and time.
     */
    @Test
    void theListingTellsEachCallerWhatTheyMayDoNowAndWhyNot() {
        try (SnapshotStore store = MemorySnapshotStore.create();
             Agent agent = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                     .approverRules(ApproverRule.builder("two travel approvers").tool("bookFlight").roles("travel").approvals(2).build())
                     .build()) {
            BatonHttpApi api = BatonHttpApi.builder().agents(agent).authenticator(Authenticator.bearerTokens()
                    .token(ALICE, Principal.builder().name("alice").resourceIds(List.of("alice")).roles(List.of("travel")).build())
                    .token(BOB, Principal.unrestricted("bob"))
                    .token(MARIA, Principal.builder().name("maria").roles(List.of("travel", "finance")).build())
                    .token(JOHN, Principal.builder().name("john").roles(List.of("travel")).build())
                    .build()).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).start()) {
                ApiClient alice = new ApiClient(server.uri(), ALICE);
                ApiClient bob = new ApiClient(server.uri(), BOB);
                ApiClient maria = new ApiClient(server.uri(), MARIA);
                ApiClient john = new ApiClient(server.uri(), JOHN);
                ApiClient.Response started = alice.postForJson("/agents/concierge/runs", "{\"prompt\":\"Book a flight to Rome\"}");
                assertThat(started.status()).as(started.body()).isEqualTo(200);
                String run = started.json().get("runId").asText();
                String call = started.json().get("waitingCalls").get(0).get("toolCallId").asText();

                assertThat(mayAndWhy(bob)).isEqualTo("[] needs travel");
                assertThat(mayAndWhy(alice)).isEqualTo("[\"decline\"] you started this run");
                assertThat(mayAndWhy(maria)).isEqualTo("[\"approve\",\"edit\",\"decline\"] null");

                ApiClient.Response first = maria.postForJson("/agents/concierge/runs/" + run + "/approve",
                        "{\"toolCallId\":\"" + call + "\"}");
                assertThat(first.status()).as(first.body()).isEqualTo(200);
                assertThat(mayAndWhy(maria)).as("an approval given: the same person cannot approve again, may still edit or decline")
                        .isEqualTo("[\"edit\",\"decline\"] you approved; waiting for 1 more");
                assertThat(mayAndWhy(john)).isEqualTo("[\"approve\",\"edit\",\"decline\"] null");
                assertThat(mayAndWhy(bob)).as("nothing of the approvers' names is hidden or added: the card shows them anyway")
                        .isEqualTo("[] needs travel");

                JsonNode history = maria.get("/agents/concierge/decisions?runId=" + run).json().get("decisions");
                assertThat(history).as("the partial approval is in the audit trail, with who and when").hasSize(1);
                assertThat(history.get(0).get("actor").asText()).isEqualTo("maria");
                assertThat(history.get(0).get("kind").asText()).isEqualTo("approve");
                assertThat(history.get(0).get("decidedAt").asText()).isNotBlank();

                ApiClient.Response second = john.postForJson("/agents/concierge/runs/" + run + "/approve",
                        "{\"toolCallId\":\"" + call + "\"}");
                assertThat(second.json().get("outcome").asText()).isEqualTo("COMPLETED");
                history = maria.get("/agents/concierge/decisions?runId=" + run).json().get("decisions");
                assertThat(history).extracting(d -> d.get("actor").asText()).containsExactlyInAnyOrder("john", "maria");
            }
        }
    }

    /** "youMay whyNot" of the one waiting call, as {@code caller} lists it. */
    private static String mayAndWhy(ApiClient caller) {
        ApiClient.Response listed = caller.get("/agents/concierge/suspended-runs");
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        JsonNode call = listed.json().get("runs").get(0).get("toolCalls").get(0);
        return call.get("youMay").toString() + " " + (call.get("whyNot").isNull() ? "null" : call.get("whyNot").asText());
    }
}
