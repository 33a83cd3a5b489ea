package dev.baton.tck.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Cancelling a suspended run ends it with an event and its snapshot goes; a cancel racing an
 * approval has exactly one winner; cancelling a supervisor's run cancels its subagent's inner run;
 * a run being resumed cannot be cancelled.
 */
public abstract class Cancelling extends LifecycleRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Cancelling(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void cancellingASuspendedRunEndsItWithAnEventAndItsSnapshotGoes() {
        Agent agent = agent();
        AgentResult r = suspend(agent);
        AgentResult cancelled = agent.cancelRun(r.runId(), "changed my mind");
        assertThat(cancelled.outcome()).isEqualTo(RunOutcome.CANCELLED);
        assertThat(cancelled.eventTypes()).containsExactly("start", "cancelled", "finish");
        assertThat(store.find(r.runId())).isEmpty();
        assertThat(agent.listSuspendedRuns().total()).isZero();
        assertThat(bookings).hasValue(0);
        // a store that keeps decisions says who cancelled it, and when (rule D8)
        Class<? extends Throwable> ended = store.capabilities().contains(dev.baton.store.StoreCapability.DECISIONS)
                ? dev.baton.AlreadyDecidedException.class : RunNotFoundException.class;
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r))).isInstanceOf(ended);
        assertThatThrownBy(() -> agent.cancelRun(r.runId(), "again")).isInstanceOf(ended);
    }

    @Test
    void aCancelRacingAnApprovalHasExactlyOneWinnerInEachOfTwentyRounds() throws Exception {
        Agent agent = agent();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 20; round++) {
                bookings.set(0);
                AgentResult r = suspend(agent);
                CountDownLatch start = new CountDownLatch(1);
                CountDownLatch allTried = new CountDownLatch(4);
                List<Future<String>> attempts = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    boolean cancel = i % 2 == 0;
                    Agent caller = agentBuilder(agentId).instanceId("server-" + i).build();
                    attempts.add(pool.submit(() -> {
                        start.await();
                        AgentStream approval = null;
                        try {
                            if (cancel) {
                                caller.cancelRun(r.runId(), "race");
                            } else {
                                approval = caller.approveToolCall(r.runId(), callId(r));
                            }
                        } finally {
                            allTried.countDown();
                        }
                        allTried.await();
                        if (approval != null) approval.result();
                        return cancel ? "cancel" : "approve";
                    }));
                }
                start.countDown();
                List<String> winners = new ArrayList<>();
                for (Future<String> f : attempts) {
                    try {
                        winners.add(f.get(60, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.ExecutionException e) {
                        assertThat(e.getCause()).isInstanceOfAny(RunNotSuspendedException.class, RunNotFoundException.class);
                    }
                }
                assertThat(winners).as("round %d", round).hasSize(1);
                assertThat(bookings.get()).as("the tool ran only if the approval won").isEqualTo(
                        winners.get(0).equals("approve") ? 1 : 0);
                assertThat(store.find(r.runId())).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void cancellingASupervisorRunAlsoCancelsItsSubagentsInnerRun() {
        Agent booker = agentBuilder(agentId + "-booker").build();
        Agent supervisor = Agent.builder(agentId + "-supervisor")
                .model(DeterministicModel.builder().whenUserSays("flight", "agent-" + booker.id(),
                        text -> Map.of("prompt", text)).build())
                .subagents(booker).store(store).clock(clock).build();
        AgentResult outer = supervisor.generate("Book a flight", RunOptions.DEFAULT);
        AgentRun inner = booker.listSuspendedRuns().runs().get(0);
        assertThatThrownBy(() -> booker.cancelRun(inner.runId(), "no")).isInstanceOf(ResumeMismatchException.class);
        assertThat(supervisor.cancelRun(outer.runId(), "no trip").outcome()).isEqualTo(RunOutcome.CANCELLED);
        assertThat(supervisor.listSuspendedRuns().total() + booker.listSuspendedRuns().total()).isZero();
        assertThat(bookings).hasValue(0);
    }

    @Test
    void aRunBeingResumedCannotBeCancelled() {
        Agent agent = agent();
        AgentResult r = suspend(agent);
        AgentStream resuming = agent.approveToolCall(r.runId(), callId(r));
        assertThatThrownBy(() -> agent.cancelRun(r.runId(), "late")).isInstanceOf(RunNotSuspendedException.class);
        assertThat(resuming.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
    }
}
