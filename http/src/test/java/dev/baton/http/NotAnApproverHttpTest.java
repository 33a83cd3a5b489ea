package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.RunOptions;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A decision the agent's approver rules refuse is a 403 {@code not-an-approver} naming the rule and the
 * decision; nothing changed and nothing was recorded (rule A1 of docs/approvals.md, over HTTP).
 */
class NotAnApproverHttpTest {

    @Test
    void aDecisionTheApproverRulesRefuseIs403NamingTheRuleAndChangesNothing() {
        try (SnapshotStore store = MemorySnapshotStore.create();
             Agent agent = TestAgents.conciergeBuilder(TestAgents.CONCIERGE, store, Clock.systemUTC(), m -> m)
                     .approverRules(ApproverRule.builder("flights by travel staff").tool("bookFlight").roles("travel").build())
                     .build()) {
            String run = agent.generate("Book a flight to Rome", RunOptions.builder().resourceId("alice").build()).runId();
            String call = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();
            RunSnapshot before = store.find(run).orElseThrow();
            BatonHttpApi api = BatonHttpApi.builder().agents(agent)
                    .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("maria")).build()).build();
            try (HttpTarget.Served server = HttpTarget.serve(api)) {
                ApiClient maria = new ApiClient(server.uri(), TestServer.ADMIN);
                ApiClient.Response r = maria.post("/agents/concierge/runs/" + run + "/approve", "{\"toolCallId\":\"" + call + "\"}");
                assertThat(r.status()).as(r.body()).isEqualTo(403);
                assertThat(r.contentType()).isEqualTo("application/problem+json");
                JsonNode p = r.json();
                assertThat(p.get("type").asText()).isEqualTo("urn:baton:problem:not-an-approver");
                assertThat(p.get("rule").asText()).isEqualTo("flights by travel staff");
                assertThat(p.get("decision").asText()).isEqualTo("approve");
                assertThat(p.get("detail").asText()).contains("'maria' may not approve", "travel", "Nothing was changed");
            }
            assertThat(store.find(run)).as("nothing changed").contains(before);
            assertThat(agent.listDecisions(AgentListDecisionsOptions.all()).items()).as("nothing recorded").isEmpty();
        }
    }
}
