package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A suspended run is listed and resumed by a new agent instance with the same id, tools and store,
 * and after the store is closed and opened again.
 */
public abstract class Persistence extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Persistence(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aNewAgentInstanceWithTheSameIdToolsAndStoreListsAndResumes() {
        AgentResult r = suspendForApproval(agent(), "t", "u");
        Agent another = agent();
        assertThat(runIds(another.listSuspendedRuns())).containsExactly(r.runId());
        assertThat(another.approveToolCall(r.runId(), onlyCallId(r)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
    }

    @Test
    void afterTheStoreIsReopenedANewAgentListsAndResumes() throws Exception {
        AgentResult approval = suspendForApproval(agent(), "t", "u");
        clock.advance(Duration.ofSeconds(1));
        AgentResult data = agent().generate("city?", on("t2", "u"));
        store.close();
        store = null;
        store = openStore();
        Agent restarted = agent();
        assertThat(runIds(restarted.listSuspendedRuns())).containsExactly(data.runId(), approval.runId());
        assertThat(restarted.approveToolCall(approval.runId(), onlyCallId(approval)).result().outcome())
                .isEqualTo(RunOutcome.COMPLETED);
        assertThat(restarted.resumeStream(Map.of("name", "Lima"), data.runId()).result().text()).contains("Lima");
        assertThat(restarted.listSuspendedRuns().total()).isZero();
    }
}
