package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.StoreUnderTest;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An interrupted tool, or a pool shut down with {@code shutdownNow}, stops the run promptly, keeps it
 * resumable, and keeps the thread's interrupt flag.
 */
public abstract class Interrupts extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Interrupts(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void anInterruptedToolStopsTheRunKeepsItResumableAndKeepsTheInterruptFlag() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Agent agent = agentBuilder(store, bookFlight(entered, never)).build();
        AgentResult r = suspend(agent);
        AtomicReference<AgentResult> result = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread worker = new Thread(() -> {
            result.set(agent.approveToolCall(r.runId(), callId(r)).result());
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        worker.start();
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        worker.interrupt();
        worker.join(20_000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(result.get().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(flagKept).as("the thread's interrupt flag is kept").isTrue();
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.interrupted()).isTrue();
        assertThat(run.toolCalls()).isEmpty();
        AgentResult done = agentBuilder(store).build().continueRun(r.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result().path("attempt").asInt())
                        .as("the tool knows it is a second attempt").isEqualTo(2));
        assertThat(bookings).hasValue(1);
    }

    @Test
    void shutdownNowStopsARunPromptlyAndTheRunIsKept() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Agent agent = agentBuilder(store, bookFlight(entered, new CountDownLatch(1))).build();
        AgentResult r = suspend(agent);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<AgentResult> running = pool.submit(() -> agent.approveToolCall(r.runId(), callId(r)).result());
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("the run stopped promptly").isTrue();
        assertThat(running.get().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(agent.listSuspendedRuns().runs()).singleElement().satisfies(run -> assertThat(run.interrupted()).isTrue());
    }
}
