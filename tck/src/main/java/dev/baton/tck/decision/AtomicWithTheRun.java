package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.AlreadyDecidedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class AtomicWithTheRun extends DecisionRules {
    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected AtomicWithTheRun(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aCrashBeforeTheApprovalWriteKeepsNeitherTheClaimNorTheRecord() {
        AgentResult r = suspend(agent(), "t", "u");
        RunSnapshot before = store.find(r.runId()).orElseThrow();
        FaultyStore dying = new FaultyStore(store).crashAt(1, false);
        Agent doomed = agentBuilder(dying).build();
        assertThatThrownBy(() -> doomed.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").build()))
                .isInstanceOf(SimulatedCrash.class);
        assertThat(store.find(r.runId())).contains(before);
        assertThat(recordsOf(r.runId())).isEmpty();
        // the decision can be made again, and is recorded once
        assertThat(agent().approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").build())
                .result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactly("alice");
        assertThat(charges).hasValue(1);
    }

    @Test
    void aCrashAfterTheApprovalWriteKeepsBothAndASecondApprovalNamesContinueRun() {
        AgentResult r = suspend(agent(), "t", "u");
        RunSnapshot before = store.find(r.runId()).orElseThrow();
        FaultyStore dying = new FaultyStore(store).crashAt(1, true);
        Agent doomed = agentBuilder(dying).build();
        assertThatThrownBy(() -> doomed.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").build()))
                .isInstanceOf(SimulatedCrash.class);
        RunSnapshot after = store.find(r.runId()).orElseThrow();
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.status()).isEqualTo(RunStatus.RESUMING);
        Instant decidedAt = clock.instant();
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactly("alice");
        clock.advance(Duration.ofMinutes(5));   // the dead holder's lease lapses: the run is listed as interrupted
        Agent next = agent();
        assertThatThrownBy(() -> next.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("bob").build()))
                .isInstanceOf(AlreadyDecidedException.class).hasMessageContaining("'alice'").hasMessageContaining(decidedAt.toString())
                .hasMessageContaining("continueRun(\"" + r.runId() + "\")");
        assertThat(next.continueRun(r.runId(), DecisionOptions.by("ops")).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.CONTINUE, DecisionKind.APPROVE);
        assertThat(charges).hasValue(1);
    }

    @Test
    void aCrashBeforeOrAfterTheDiscardWriteKeepsTheRunOrTheRecordNeverBothNorNeither() {
        for (boolean afterTheWrite : new boolean[] {false, true}) {
            AgentResult r = suspend(agent(), "t", "u");
            Agent doomed = agentBuilder(new FaultyStore(store).crashAt(1, afterTheWrite)).build();
            assertThatThrownBy(() -> doomed.discardRun(r.runId(), DecisionOptions.by("dave"))).isInstanceOf(SimulatedCrash.class);
            if (afterTheWrite) {
                assertThat(store.find(r.runId())).isEmpty();
                assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.DISCARD);
            } else {
                assertThat(store.find(r.runId())).isPresent();
                assertThat(recordsOf(r.runId())).isEmpty();
            }
        }
    }

    @Test
    void aCrashBetweenTheCancelClaimAndItsDeleteKeepsTheRecordAndTheRunToBeCancelledAgain() {
        AgentResult r = suspend(agent(), "t", "u");
        Agent doomed = agentBuilder(new FaultyStore(store).crashAt(1, true)).build();
        assertThatThrownBy(() -> doomed.cancelRun(r.runId(), DecisionOptions.by("carol"))).isInstanceOf(SimulatedCrash.class);
        assertThat(store.find(r.runId())).isPresent();
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.CANCEL);
        clock.advance(Duration.ofMinutes(5));
        assertThat(agent().cancelRun(r.runId(), DecisionOptions.by("carol")).outcome()).isEqualTo(RunOutcome.CANCELLED);
        assertThat(store.find(r.runId())).isEmpty();
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.CANCEL, DecisionKind.CANCEL);
        assertThat(charges).hasValue(0);
    }

    @Test
    void aLostRaceOrATakenDecisionIdStoresNoRecordAndChangesNothing() {
        RunSnapshot run = storedRun("race-" + agentId, "t", "u");
        DecisionRecord first = record(run.runId(), "alice", clock.instant()).build();
        assertThat(store.compareAndSet(run.version() + 5, claimed(run, clock.instant()), List.of(first))).isFalse();
        assertThat(store.delete(run.runId(), run.version() + 5, List.of(first))).isFalse();
        assertThat(recordsOf(run.runId())).isEmpty();
        assertThat(store.find(run.runId())).contains(run);
        assertThat(store.compareAndSet(run.version(), claimed(run, clock.instant()), List.of(first))).isTrue();
        RunSnapshot now = store.find(run.runId()).orElseThrow();
        // the same decisionId again: refused as a whole, the run stays as it is
        DecisionRecord sameId = record(run.runId(), "bob", clock.instant().plusSeconds(1)).decisionId(first.decisionId()).build();
        assertThat(store.delete(run.runId(), now.version(), List.of(sameId))).isFalse();
        assertThat(store.find(run.runId())).contains(now);
        assertThat(recordsOf(run.runId())).containsExactly(first);
        // several records in one write (an expiry of several calls): all or none
        DecisionRecord a = record(run.runId(), DecisionRecord.SYSTEM, clock.instant().plusSeconds(2)).toolCallId("call-a").build();
        DecisionRecord b = record(run.runId(), DecisionRecord.SYSTEM, clock.instant().plusSeconds(2)).toolCallId("call-b").build();
        assertThat(store.delete(run.runId(), now.version(), List.of(a, b))).isTrue();
        assertThat(store.find(run.runId())).isEmpty();
        assertThat(recordsOf(run.runId())).containsExactlyInAnyOrder(first, a, b);
    }
}
