package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.LeaseLostException;
import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.StoreCapability;
import dev.baton.tck.ProvesCapability;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Leases under trouble: a slow store for one run never lets another run's lease lapse; client
 * clocks that disagree by more than a lease let a live run be taken (the reason for the store clock),
 * the store clock does not; a stream that stalled past its lease ends with the lease lost.
 */
public abstract class Leases extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Leases(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aSlowStoreForOneRunNeverLetsAnotherRunsLeaseLapse() throws Exception {
        FaultyStore faulty = new FaultyStore(store);
        Duration lease = Duration.ofMillis(1500);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<String> slowRun = new AtomicReference<>("");
        AtomicReference<String> watchedRun = new AtomicReference<>("");
        Tool longTool = Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            if (ctx.runId().equals(watchedRun.get())) {
                entered.countDown();
                Thread.sleep(3 * lease.toMillis());
            }
            bookings.incrementAndGet();
            return "ok";
        }).build();
        Agent agent = Agent.builder(agentId).model(rules()).tools(longTool).store(faulty).clock(Clock.systemUTC())
                .leaseDuration(lease).build();
        RunOptions on = RunOptions.builder().threadId("t").build();
        AgentResult slow = agent.generate("flight", on);
        AgentResult watched = agent.generate("flight", on);
        slowRun.set(slow.runId());
        watchedRun.set(watched.runId());
        faulty.slowWrites(id -> id.equals(slowRun.get()), lease.multipliedBy(4));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<AgentResult> slowOne = pool.submit(() -> agent.approveToolCall(slow.runId(), callId(slow)).result());
            Future<AgentResult> watchedOne = pool.submit(() -> agent.approveToolCall(watched.runId(), callId(watched)).result());
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            while (!watchedOne.isDone()) {
                RunSnapshot s = store.find(watched.runId()).orElse(null);
                if (s == null) break;
                assertThat(s.effectiveStatus(Instant.now())).as("the watched run's lease never lapses").isEqualTo(RunStatus.RESUMING);
                assertThat(agent.listSuspendedRuns().runs()).extracting(AgentRun::runId).doesNotContain(watched.runId());
                Thread.sleep(50);
            }
            assertThat(watchedOne.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(1);
            slowOne.cancel(true);   // the slow run's own fate is not the point here
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withClientClocksAnInstanceWhoseClockRunsAheadByMoreThanTheLeaseTakesOverALiveRun() throws Exception {
        // what the default (client clock) mode cannot protect against: the reason for useStoreClock()
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger starts = new AtomicInteger();
        Tool tool = Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            if (starts.incrementAndGet() == 1) {
                entered.countDown();
                release.await();
            }
            bookings.incrementAndGet();
            return "ok";
        }).build();
        Agent a = agentBuilder(store, tool).instanceId("on-time").build();
        AgentResult r = suspend(a);
        Clock ahead = Clock.offset(clock, Duration.ofMinutes(3));
        Agent b = agentBuilder(store, tool).clock(ahead).instanceId("ahead").build();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<AgentResult> first = pool.submit(() -> a.approveToolCall(r.runId(), callId(r)).result());
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(b.listSuspendedRuns().runs()).extracting(AgentRun::runId).as("b thinks the lease lapsed")
                    .contains(r.runId());
            assertThat(b.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            release.countDown();
            AgentResult late = first.get(30, TimeUnit.SECONDS);
            assertThat(late.error()).isInstanceOf(LeaseLostException.class);
            assertThat(bookings).as("the tool ran twice: client clocks must agree to well within a lease").hasValue(2);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    @ProvesCapability(StoreCapability.STORE_CLOCK)
    void withTheStoreClockAnInstanceWhoseWallClockIsOffCannotTakeALiveRun() throws Exception {
        assumeTrue(store.capabilities().contains(StoreCapability.STORE_CLOCK), "the store has no clock of its own");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Tool tool = bookFlight(entered, release);
        Agent a = Agent.builder(agentId).model(rules()).tools(tool).store(store).useStoreClock().instanceId("a").build();
        Agent b = Agent.builder(agentId).model(rules()).tools(tool).store(store)
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(2))).useStoreClock().instanceId("b").build();
        AgentResult r = a.generate("flight", RunOptions.DEFAULT);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<AgentResult> first = pool.submit(() -> a.approveToolCall(r.runId(), callId(r)).result());
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(b.listSuspendedRuns().runs()).extracting(AgentRun::runId).doesNotContain(r.runId());
            assertThatThrownBy(() -> b.continueRun(r.runId())).isInstanceOf(RunNotSuspendedException.class);
            release.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(1);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aStreamThatStalledPastItsLeaseWhileAnotherInstanceTookTheRunEndsWithLeaseLost() {
        Agent a = agentBuilder(store).instanceId("stalled").leaseDuration(Duration.ofSeconds(30)).build();
        AgentResult r = suspend(a);
        AgentStream stalled = a.approveToolCall(r.runId(), callId(r));
        assertThat(stalled.iterator().next().type()).isEqualTo("start");
        clock.advance(Duration.ofSeconds(31));
        Agent b = agentBuilder(store).instanceId("taker").build();
        assertThat(b.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        AgentResult late = stalled.result();
        assertThat(late.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(late.error()).isInstanceOf(LeaseLostException.class);
        assertThat(bookings).hasValue(1);
    }
}
