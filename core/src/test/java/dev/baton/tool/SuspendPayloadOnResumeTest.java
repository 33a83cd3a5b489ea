package dev.baton.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.testing.TestStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A tool that waits on something outside (a remote task, a ticket) finds, when it is resumed, what it
 * suspended on: {@link ToolContext#suspendPayload()} is the payload it passed to {@code suspend}, and
 * null on a first start.
 */
class SuspendPayloadOnResumeTest {
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private Agent agent(TestStore store) {
        Tool ticket = Tool.builder("openTicket").execute((input, ctx) -> {
            seen.add(String.valueOf(ctx.suspendPayload()));
            if (!ctx.isResumed()) return ctx.suspend(Map.of("ticket", "T-" + ctx.toolCallId()));
            JsonNode payload = ctx.suspendPayload();
            return payload.path("ticket").asText() + " answered " + ctx.resumeData().asText();
        }).build();
        return Agent.builder("desk").store(store).tools(ticket)
                .model(DeterministicModel.builder().whenUserSays("ticket", "openTicket", Map.of()).build()).build();
    }

    @Test
    void aResumedToolSeesThePayloadItSuspendedWithAndAFirstStartSeesNone() {
        TestStore store = new TestStore();
        AgentResult first = agent(store).generate("open a ticket");
        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        // another agent object over the same store: the payload comes from the stored run, not from memory
        try (AgentStream resumed = agent(store).resumeStream("yes", first.runId())) {
            AgentResult result = resumed.result();
            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.text()).contains("T-call_1_0 answered yes");
        }
        assertThat(seen).containsExactly("null", "{\"ticket\":\"T-call_1_0\"}");
    }
}
