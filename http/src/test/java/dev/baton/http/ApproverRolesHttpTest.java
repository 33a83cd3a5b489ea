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
}
