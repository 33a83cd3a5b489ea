package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ResumeMismatchException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Subagents whose runs outlive their process: a storage failure of the inner run never becomes the
 * tool's result, an orphaned inner run can be discarded, a waiting supervisor's inner run cannot, and
 * a supervisor whose lease lapses first waits for its inner run's lease.
 */
public abstract class Subagents extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Subagents(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private Agent booker(SnapshotStore s, CountDownLatch entered, CountDownLatch release) {
        return Agent.builder(agentId + "-booker").model(rules()).tools(bookFlight(entered, release)).store(s).clock(clock)
                .instanceId("tck-booker").build();
    }

    private Agent supervisor(SnapshotStore s, Agent sub, dev.baton.agent.RunListener... listeners) {
        return Agent.builder(agentId + "-supervisor")
                .model(DeterministicModel.builder().whenUserSays("flight", "agent-" + sub.id(), text -> Map.of("prompt", text)).build())
                .subagents(sub).store(s).clock(clock).listeners(listeners).instanceId("tck-supervisor").build();
    }

    private Agent booker(SnapshotStore s) {
        return booker(s, new CountDownLatch(1), new CountDownLatch(0));
    }

    @Test
    void aStorageFailureOfTheInnerRunNeverBecomesTheToolResultAndTheOuterRunStaysResumable() {
        FaultyStore faulty = new FaultyStore(store);
        Agent booker = booker(faulty);
        Agent supervisor = supervisor(faulty, booker);
        AgentResult outer = supervisor.generate("Book a flight", RunOptions.DEFAULT);
        String inner = booker.listSuspendedRuns().runs().get(0).runId();
        faulty.failNextWrite(inner::equals);
        AgentResult failed = supervisor.approveToolCall(outer.runId(), callId(outer)).result();
        assertThat(failed.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(failed.eventTypes()).doesNotContain("tool-result", "tool-error");
        AgentRun kept = supervisor.listSuspendedRuns().runs().get(0);
        assertThat(kept.interrupted()).isTrue();
        AgentResult done = supervisor.continueRun(outer.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).contains("SFO").doesNotContain("Subagent failed");
        assertThat(bookings).hasValue(1);
        assertThat(booker.listSuspendedRuns().total() + supervisor.listSuspendedRuns().total()).isZero();
    }

    @Test
    void anInnerRunWhoseSupervisorRunWasNeverStoredIsListedWithItsParentAndCanBeDiscarded() {
        Agent probeBooker = booker(store);
        // the supervisor's first write after the inner run's insert is its own insert: die there
        FaultyStore dying = new FaultyStore(store).crashAt(2, false);
        Agent booker = booker(dying);
        Agent supervisor = supervisor(dying, booker);
        assertThatThrownBy(() -> supervisor.generate("Book a flight", RunOptions.DEFAULT)).isInstanceOf(SimulatedCrash.class);
        AgentRun orphan = probeBooker.listSuspendedRuns().runs().get(0);
        assertThat(orphan.parentRunId()).isNotNull();
        assertThat(store.find(orphan.parentRunId())).as("the supervisor's run was never stored").isEmpty();
        probeBooker.discardRun(orphan.runId());
        assertThat(probeBooker.listSuspendedRuns().total()).isZero();
    }

    @Test
    void theInnerRunOfAWaitingSupervisorRunCannotBeDiscardedButDiscardingTheSupervisorRunRemovesBoth() {
        Agent booker = booker(store);
        Agent supervisor = supervisor(store, booker);
        AgentResult outer = supervisor.generate("Book a flight", RunOptions.DEFAULT);
        AgentRun inner = booker.listSuspendedRuns().runs().get(0);
        assertThat(inner.parentRunId()).isEqualTo(outer.runId());
        assertThatThrownBy(() -> booker.discardRun(inner.runId())).isInstanceOf(ResumeMismatchException.class)
                .hasMessageContaining(outer.runId());
        supervisor.discardRun(outer.runId());
        assertThat(supervisor.listSuspendedRuns().total() + booker.listSuspendedRuns().total()).isZero();
        assertThat(bookings).hasValue(0);
    }

    @Test
    void aSupervisorRunWhoseLeaseLapsesBeforeItsInnerRunsWaitsForThatLeaseAndLosesNothing() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        FaultyStore dying = new FaultyStore(store);
        Agent booker = booker(dying, entered, never);
        // the inner run is claimed 20 s after the outer one, so its lease lapses 20 s later
        Agent supervisor = supervisor(dying, booker, new dev.baton.agent.RunListener() {
            @Override
            public void claimed(dev.baton.agent.RunListener.Claim claim) {
                clock.advance(Duration.ofSeconds(20));
            }
        });
        AgentResult outer = supervisor.generate("Book a flight", RunOptions.DEFAULT);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            pool.submit(() -> supervisor.approveToolCall(outer.runId(), callId(outer)).result());
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            dying.close();   // the process dies while the inner tool runs
            clock.advance(Duration.ofSeconds(41));   // the outer lease lapsed, the inner one has not
            Agent booker2 = booker(store);
            Agent supervisor2 = supervisor(store, booker2);
            AgentRun run = supervisor2.listSuspendedRuns().runs().get(0);
            assertThat(run.interrupted()).isTrue();
            AgentResult early = supervisor2.continueRun(outer.runId()).result();
            assertThat(early.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(early.error()).hasMessageContaining("subagent");
            assertThat(supervisor2.listSuspendedRuns().total()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(21));
            AgentResult done = supervisor2.continueRun(outer.runId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).as("the interrupted attempt never booked").hasValue(1);
            assertThat(supervisor2.listSuspendedRuns().total() + booker2.listSuspendedRuns().total()).isZero();
        } finally {
            never.countDown();
            pool.shutdownNow();
        }
    }
}
