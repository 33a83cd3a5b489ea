package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Rule R12, instances leave gracefully: {@code Agent.close()} stops taking new runs and claims,
 * lets a tool under way finish within the grace period, and hands every claim back at once (a
 * compare-and-set to suspended, marked interrupted, the decision kept), so another instance
 * continues the run at once: the test clock never moves, the ten-minute lease never lapses.
 */
public abstract class Shutdown extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Shutdown(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private Agent other() {
        return agentBuilder(store).instanceId("tck-other-" + agentId).leaseDuration(LEASE).build();
    }

    private static Thread started(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * The run is handed back, listed as interrupted for the reason that really applies: a tool still
     * under way past the grace period runs again; anything else (a tool that finished within the
     * grace, a claim not read yet) does not, and the reason must not say it does.
     */
    private void assertHandedBack(String runId, boolean toolUnderWay) {
        RunSnapshot s = store.find(runId).orElseThrow();
        assertThat(s.status()).as("rule R12: handed back, not waiting for the lease to lapse").isEqualTo(RunStatus.SUSPENDED);
        assertThat(s.leaseOwner()).as("rule R12: the lease owner of a handed-back run").isNull();
        AgentRun listed = other().listSuspendedRuns().runs().stream().filter(r -> r.runId().equals(runId)).findFirst().orElseThrow();
        assertThat(listed.interrupted()).as("rule R12: a handed-back run is listed as interrupted").isTrue();
        if (toolUnderWay) {
            assertThat(listed.interruption()).as("rule R12: why, for a tool under way past the grace period")
                    .isEqualTo("its instance shut down while it ran, past the grace period; continueRun goes on (a tool under way"
                            + " runs again)");
        } else {
            assertThat(listed.interruption()).as("rule R12: why, with no tool under way").isEqualTo("its instance shut down;"
                    + " continueRun goes on");
        }
        assertThat(listed.toolCalls()).as("rule R12: the approval is kept: nothing waits for a human").isEmpty();
    }

    @Test
    void closeDuringAToolLetsItFinishHandsTheRunBackAndAnotherInstanceContinuesAtOnce() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Agent agent = agentBuilder(store, bookFlight(entered, release)).leaseDuration(LEASE).shutdownGrace(Duration.ofSeconds(20))
                .build();
        AgentResult r = suspend(agent);
        AtomicReference<AgentResult> result = new AtomicReference<>();
        Thread worker = started(() -> result.set(agent.approveToolCall(r.runId(), callId(r)).result()), "tck-shutdown-worker");
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        Thread closer = started(agent::close, "tck-shutdown-closer");
        await("the closing agent refuses new runs", () -> refusesNewRuns(agent));
        assertThat(closer.isAlive()).as("close waits for the tool under way").isTrue();
        release.countDown();
        closer.join(20_000);
        worker.join(20_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(result.get().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(bookings).as("the tool finished within the grace period").hasValue(1);
        assertHandedBack(r.runId(), false);
        AgentResult done = other().continueRun(r.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.events()).noneMatch(e -> e instanceof AgentEvent.ToolResult);
        assertThat(bookings).as("its result was handed back with the run: the tool ran once").hasValue(1);
        assertThat(store.find(r.runId())).isEmpty();
    }

    @Test
    void closePastTheGraceHandsTheRunBackAtOnceAndTheLateToolResultIsRefused() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Agent agent = agentBuilder(store, bookFlight(entered, release)).leaseDuration(LEASE)
                .shutdownGrace(Duration.ofMillis(200)).build();
        AgentResult r = suspend(agent);
        AtomicReference<AgentResult> late = new AtomicReference<>();
        Thread worker = started(() -> late.set(agent.approveToolCall(r.runId(), callId(r)).result()), "tck-shutdown-worker");
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        agent.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("close returns after the grace period").isLessThan(Duration.ofSeconds(10));
        assertHandedBack(r.runId(), true);
        AgentResult done = other().continueRun(r.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result().path("attempt").asInt())
                        .as("the tool under way is run again, and knows it").isEqualTo(2));
        release.countDown();
        worker.join(20_000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(late.get().outcome()).as("the closed instance's late result is refused").isNotEqualTo(RunOutcome.COMPLETED);
        assertThat(store.find(r.runId())).as("nothing the closed instance wrote late brings the run back").isEmpty();
    }

    @Test
    void aClaimWhoseStreamIsNotReadYetIsHandedBackAtOnceWithItsDecision() throws Exception {
        Agent agent = agentBuilder(store).leaseDuration(LEASE).pickupTimeout(Duration.ofMinutes(5)).build();
        AgentResult r = suspend(agent);
        agent.approveToolCall(r.runId(), callId(r));   // claimed; its stream is not read
        long t0 = System.nanoTime();
        agent.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("nothing under way: close does not wait for the grace")
                .isLessThan(Duration.ofSeconds(5));
        assertHandedBack(r.runId(), false);
        assertThat(other().continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
    }

    @Test
    void aClosedAgentRefusesNewRunsAndClaimsAndLeavesTheRunAsItWas() {
        Agent agent = agentBuilder(store).leaseDuration(LEASE).build();
        AgentResult r = suspend(agent);
        long version = store.find(r.runId()).orElseThrow().version();
        agent.close();
        agent.close();   // idempotent
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> agent.generate("Book a flight")).isInstanceOf(IllegalStateException.class);
        assertThat(store.find(r.runId()).orElseThrow().version()).isEqualTo(version);
        assertThat(other().approveToolCall(r.runId(), callId(r)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
    }

    private static boolean refusesNewRuns(Agent agent) {
        try {
            agent.stream("nothing");   // not read: nothing of it runs or is stored
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
