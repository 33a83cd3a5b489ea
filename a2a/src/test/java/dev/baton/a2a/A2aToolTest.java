package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Baton's A2aTool against a remote agent on the A2A SDK's own server side: the remote task's
 * input-required suspends the Baton run with the remote question, and resuming the run answers the
 * remote task, which completes.
 */
class A2aToolTest {
    private JettyServer remote;
    private final AtomicReference<SdkServer> sdk = new AtomicReference<>();
    private SnapshotStore store;
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        remote = JettyServer.start(0, "/billing", url -> {
            sdk.set(new SdkServer(url.toString()));
            return sdk.get();
        });
        store = SnapshotStores.open("memory:");
        agent = Agent.builder("assistant").store(store)
                .tools(A2aTool.builder("billing", URI.create("http://127.0.0.1:" + remote.port + "/billing")).build())
                .model(DeterministicModel.builder().whenUserSays("refund", "billing", Map.of("message", "Please refund me")).build())
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        agent.close();
        store.close();
        remote.close();
    }

    @Test
    void aRemoteTaskWaitingForInputSuspendsTheRunAndTheAnswerCompletesIt() {
        AgentResult first = agent.generate("refund my invoice");
        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        AgentRunToolCall call = run.toolCalls().get(0);
        assertThat(call.toolName()).isEqualTo("billing");
        assertThat(call.requiresApproval()).isFalse();
        assertThat(call.suspendPayload().path("state").asText()).isEqualTo("input-required");
        assertThat(call.suspendPayload().path("question").asText()).isEqualTo("Which invoice?");
        assertThat(call.suspendPayload().path("a2aTaskId").asText()).isNotBlank();
        assertThat(sdk.get().refunds).hasValue(0);

        try (AgentStream resumed = agent.resumeStream("INV-9", run.runId())) {
            AgentResult result = resumed.result();
            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.text()).contains("refunded invoice INV-9 #1");
        }
        assertThat(sdk.get().refunds).hasValue(1);
    }

    @Test
    void aRemoteAgentThatCannotBeReachedIsAToolErrorTheModelSees() throws Exception {
        remote.close();
        AgentResult result = agent.generate("refund my invoice");
        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.eventTypes()).contains("tool-error");
    }

    @Test
    void aBatonAgentDelegatesToABatonA2aServerAndTheRemoteApprovalIsGivenThroughTheLocalRun() throws Exception {
        java.util.concurrent.atomic.AtomicInteger refunds = new java.util.concurrent.atomic.AtomicInteger();
        try (SnapshotStore remoteStore = SnapshotStores.open("memory:");
             Agent concierge = A2aServletTest.agent(remoteStore, refunds);
             JettyServer server = JettyServer.start(0, "/a2a", u -> A2aServlet.builder(concierge)
                     .authenticator(A2aServletTest.tenants()).publicUrl(u).build());
             Agent delegating = Agent.builder("front-desk").store(store)
                     .tools(A2aTool.builder("concierge", URI.create("http://127.0.0.1:" + server.port + "/a2a"))
                             .header("Authorization", "Bearer " + A2aServletTest.ALICE).build())
                     .model(DeterministicModel.builder().whenUserSays("refund", "concierge", Map.of("message", "refund my order")).build())
                     .build()) {
            AgentResult first = delegating.generate("refund please");
            assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            AgentRunToolCall call = delegating.listSuspendedRuns().runs().get(0).toolCalls().get(0);
            com.fasterxml.jackson.databind.JsonNode remoteCall = call.suspendPayload().path("data").path("toolCalls").get(0);
            assertThat(remoteCall.path("toolName").asText()).isEqualTo("refund");
            assertThat(refunds).hasValue(0);

            Map<String, Object> approve = Map.of("decision", "approve", "digest", remoteCall.path("digest").asText());
            try (AgentStream resumed = delegating.resumeStream(approve, first.runId())) {
                AgentResult result = resumed.result();
                assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
                assertThat(result.text()).contains("refunded order 7 #1");
            }
            assertThat(refunds).hasValue(1);
            // the remote decision is recorded with the calling agent's principal as actor
            assertThat(concierge.listDecisions(dev.baton.agent.AgentListDecisionsOptions.builder().build()).items())
                    .extracting(dev.baton.store.DecisionRecord::actor).containsExactly("alice");
        }
    }
}
