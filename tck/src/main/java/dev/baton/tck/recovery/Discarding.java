package dev.baton.tck.recovery;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Discarding a run: one whose snapshot cannot be read can be; one being resumed cannot; an unknown
 * one is not found.
 */
public abstract class Discarding extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Discarding(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void discardRemovesARunWhoseSnapshotCannotBeRead() {
        Agent agent = agentBuilder(store).build();
        Instant t = clock.instant();
        String runId = uniqueId("unreadable");
        store.insert(Snapshots.suspendedAt(agentId, runId, t).payload("{broken").summary("{broken").build());
        AgentRun listed = agent.listSuspendedRuns().runs().get(0);
        assertThat(listed.interruption()).contains("cannot be read");
        agent.discardRun(runId);
        assertThat(store.find(runId)).isEmpty();
    }

    @Test
    void aRunBeingResumedCannotBeDiscardedAndAnUnknownRunIsNotFound() {
        Agent agent = agentBuilder(store).build();
        AgentResult r = suspend(agent);
        AgentStream resuming = agent.approveToolCall(r.runId(), callId(r));
        assertThatThrownBy(() -> agent.discardRun(r.runId())).isInstanceOf(RunNotSuspendedException.class);
        assertThat(resuming.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        // a store that keeps decisions says who ended it (rule D8); another one does not know the run any more
        assertThatThrownBy(() -> agent.discardRun(r.runId())).isInstanceOf(
                store.capabilities().contains(dev.baton.store.StoreCapability.DECISIONS)
                        ? dev.baton.AlreadyDecidedException.class : dev.baton.RunNotFoundException.class);
        assertThatThrownBy(() -> agent.discardRun("no-such-run")).isInstanceOf(dev.baton.RunNotFoundException.class);
    }
}
