package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Idempotency extends DecisionRules {
    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Idempotency(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void theSameDecisionSentTwiceWithOneKeyReturnsTheFirstOutcome() {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t", "u");
        String key = "retry-" + agentId;
        AgentStream first = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").idempotencyKey(key).build());
        assertThat(first.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        AgentStream again = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").idempotencyKey(key).build());
        assertThat(again.replayed()).isTrue();
        assertThat(again.decision()).isEqualTo(first.decision());
        assertThat(again.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(again.result().events()).isEmpty();
        assertThat(charges).hasValue(1);
        assertThat(recordsOf(r.runId())).hasSize(1);
        assertThat(store.findDecision(agentId, key)).isEqualTo(first.decision());
    }

    @Test
    void retriesRacingWithOneKeyRunTheDecisionOnce() throws Exception {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t", "u");
        String key = "race-" + agentId;
        Callable<AgentResult> retry = () -> agent.approveToolCall(r.runId(), callId(r),
                ApproveOptions.builder().idempotencyKey(key).build()).result();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<AgentResult>> results = pool.invokeAll(List.of(retry, retry, retry, retry), 60, TimeUnit.SECONDS);
            for (Future<AgentResult> f : results) assertThat(f.get().outcome()).isIn(RunOutcome.COMPLETED, RunOutcome.INTERRUPTED);
        } finally {
            pool.shutdownNow();
        }
        assertThat(charges).hasValue(1);
        assertThat(recordsOf(r.runId())).hasSize(1);
    }

    @Test
    void aKeyIsUniquePerAgentInTheStore() {
        RunSnapshot a = storedRun("key-a-" + agentId, "t", "u");
        RunSnapshot b = storedRun("key-b-" + agentId, "t", "u");
        String key = "k-" + agentId;
        DecisionRecord onA = record(a.runId(), "alice", clock.instant()).idempotencyKey(key).build();
        assertThat(store.compareAndSet(a.version(), claimed(a, clock.instant()), List.of(onA))).isTrue();
        DecisionRecord onB = record(b.runId(), "alice", clock.instant()).idempotencyKey(key).build();
        assertThat(store.compareAndSet(b.version(), claimed(b, clock.instant()), List.of(onB))).isFalse();
        assertThat(store.delete(b.runId(), b.version(), List.of(onB))).isFalse();
        assertThat(store.find(b.runId())).contains(b);
        assertThat(store.findDecision(agentId, key)).contains(onA);
        assertThat(store.findDecision(agentId, key + "x")).isEmpty();
        assertThat(store.findDecision("other-" + agentId, key)).isEmpty();
    }

    @Test
    void aKeyUsedForAnotherDecisionIsRefusedNamingTheOption() {
        Agent agent = agent();
        AgentResult one = suspend(agent, "t", "u");
        AgentResult two = suspend(agent, "t", "u");
        String key = "once-" + agentId;
        agent.cancelRun(one.runId(), DecisionOptions.builder().idempotencyKey(key).build());
        assertThatThrownBy(() -> agent.approveToolCall(two.runId(), callId(two), ApproveOptions.builder().idempotencyKey(key).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("idempotencyKey").hasMessageContaining(one.runId());
        assertThat(store.find(two.runId())).isPresent();
        // the retry of the cancel itself is answered with the first outcome
        assertThat(agent.cancelRun(one.runId(), DecisionOptions.builder().idempotencyKey(key).build()).outcome())
                .isEqualTo(RunOutcome.CANCELLED);
        assertThat(recordsOf(one.runId())).hasSize(1);
    }
}
