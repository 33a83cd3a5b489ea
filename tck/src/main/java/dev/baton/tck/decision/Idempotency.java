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
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
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

    /** One of two racing writes with one key: whether it won, and what {@code findDecision} showed right after a refusal. */
    private record Attempt(boolean won, Optional<DecisionRecord> seen) {
    }

    private Attempt attempt(CyclicBarrier start, RunSnapshot run, Instant at, DecisionRecord r) throws Exception {
        start.await(30, TimeUnit.SECONDS);
        boolean won = store.compareAndSet(run.version(), claimed(run, at), List.of(r));
        return new Attempt(won, won ? Optional.empty() : store.findDecision(agentId, r.idempotencyKey()));
    }

    @Test
    void aWriteRefusedForItsKeyFindsTheDecisionHoldingIt() throws Exception {
        // two decision writes with one key on two runs (of two threads), racing: a write refused for the key finds the
        // other's record by the key at once (a retry's first look-up relies on it)
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 40; i++) {
                RunSnapshot a = storedRun("held-a-" + i + "-" + agentId, "held-ta-" + i, "u");
                RunSnapshot b = storedRun("held-b-" + i + "-" + agentId, "held-tb-" + i, "u");
                Instant at = clock.instant();
                String key = "held-" + i + "-" + agentId;
                DecisionRecord onA = record(a.runId(), "alice", at).idempotencyKey(key).build();
                DecisionRecord onB = record(b.runId(), "bob", at).idempotencyKey(key).build();
                CyclicBarrier start = new CyclicBarrier(2);
                Future<Attempt> fa = pool.submit(() -> attempt(start, a, at, onA));
                Future<Attempt> fb = pool.submit(() -> attempt(start, b, at, onB));
                Attempt ra = fa.get(60, TimeUnit.SECONDS);
                Attempt rb = fb.get(60, TimeUnit.SECONDS);
                // a refused write finds the other's record; both writes passing the check is another matter (a store
                // without transactions may let two writes on different runs both pass: see its guide), not this rule's
                if (!ra.won()) assertThat(ra.seen()).as("findDecision right after the write refused for key %s", key).contains(onB);
                if (!rb.won()) assertThat(rb.seen()).as("findDecision right after the write refused for key %s", key).contains(onA);
                assertThat(ra.won() || rb.won()).as("one of the two writes with key %s wins", key).isTrue();
                assertThat(store.findDecision(agentId, key)).isPresent();
            }
        } finally {
            pool.shutdownNow();
        }
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
