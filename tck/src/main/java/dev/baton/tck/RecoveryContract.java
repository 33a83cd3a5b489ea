package dev.baton.tck;

import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.LeaseLostException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.agent.RunStatus;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The recovery half of the TCK: a crash at every store write of a three-step run, a slow store,
 * skewed clocks, dropped and closed streams, interrupts, and subagents whose runs outlive their
 * process. Extend it and implement {@link #openStore()} (the same database on every call).
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class RecoveryContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected MutableClock clock;
    protected String agentId;
    protected final AtomicInteger bookings = new AtomicInteger();

    @BeforeEach
    void openTheStore() throws Exception {
        store = openStore();
        clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        agentId = uniqueId("tck-recovery");
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    private static final Duration LEASE = Duration.ofMinutes(10);

    protected Tool bookFlight(CountDownLatch entered, CountDownLatch release) {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            entered.countDown();
            release.await();
            bookings.incrementAndGet();
            return Map.of("booked", "SFO", "attempt", ctx.attempt());
        }).build();
    }

    protected Tool bookFlight() {
        CountDownLatch open = new CountDownLatch(0);
        return bookFlight(new CountDownLatch(1), open);
    }

    protected LanguageModel rules() {
        return DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
    }

    protected Agent.Builder agentBuilder(SnapshotStore s, Tool... tools) {
        return Agent.builder(agentId).model(rules()).tools(tools.length == 0 ? new Tool[] {bookFlight()} : tools)
                .store(s).clock(clock).instanceId("tck-" + agentId);
    }

    protected AgentResult suspend(Agent agent) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate("Book a flight", RunOptions.builder().threadId("t").resourceId("u").build());
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    protected static String callId(AgentResult r) {
        return r.waitingCalls().get(0).toolCallId();
    }

    /** Polls (bounded, real time) until {@code condition} holds. */
    protected static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting until " + what);
            Thread.sleep(20);
        }
    }

    // ---- every store write is a crash point ---------------------------------------------------------

    @Nested
    class CrashPoints {

        @TestFactory
        Stream<DynamicTest> aCrashBeforeOrAfterAnyStoreWriteOfAThreeStepRunIsRecoveredAndNoStoredResultRunsTwice() {
            // one clean run counts and names the writes
            TripScenario clean = new TripScenario(uniqueId("tck-trip"), clock, LEASE);
            FaultyStore counting = new FaultyStore(store);
            clean.drive(clean.agent(counting, "clean"));
            assertThat(clean.storedRuns(store)).as("a completed run leaves nothing behind").isZero();
            List<FaultyStore.Write> writes = counting.log();
            assertThat(writes.size()).as("writes of the scenario").isGreaterThan(10);
            List<DynamicTest> tests = new ArrayList<>();
            for (FaultyStore.Write w : writes) {
                for (boolean after : new boolean[] {false, true}) {
                    String name = "crash " + (after ? "after" : "before") + " write " + w.number() + " of " + writes.size()
                            + " (" + w.operation() + (w.status().isEmpty() ? "" : " " + w.status()) + ")";
                    tests.add(DynamicTest.dynamicTest(name, () -> crashAndRecover(w.number(), after)));
                }
            }
            return tests.stream();
        }

        private void crashAndRecover(int n, boolean after) {
            TripScenario trip = new TripScenario(uniqueId("tck-trip"), clock, LEASE);
            FaultyStore dying = new FaultyStore(store).crashAt(n, after);
            assertThatThrownBy(() -> trip.drive(trip.agent(dying, "doomed"))).isInstanceOf(SimulatedCrash.class);
            Set<String> stored = TripScenario.storedResults(dying.log());
            boolean runStored = trip.storedRuns(store) > 0;
            clock.advance(LEASE.plusSeconds(1));
            Agent recovered = trip.agent(store, "recovered");
            if (runStored) {
                assertThat(recovered.listSuspendedRuns().total()).as("the run is listed after the crash").isEqualTo(1);
                AgentResult end = trip.recover(recovered);
                assertThat(end.outcome()).isEqualTo(RunOutcome.COMPLETED);
                assertThat(end.text()).contains("all done");
            }
            assertThat(trip.storedRuns(store)).as("no snapshot is left behind").isZero();
            boolean neverStored = n == 1 && !after;
            for (String tool : TripScenario.EFFECTS) {
                if (neverStored) {
                    assertThat(trip.effects(tool)).as("%s: nothing was stored, nothing ran", tool).isZero();
                } else if (stored.contains(tool)) {
                    assertThat(trip.effects(tool)).as("%s: its result was stored before the crash", tool).isEqualTo(1);
                } else if (runStored) {
                    assertThat(trip.effects(tool)).as("%s: ran to the end, at most once more than it was stored", tool)
                            .isBetween(1, 2);
                }
            }
        }
    }

    // ---- leases ---------------------------------------------------------------------------------

    @Nested
    class Leases {

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

    // ---- streams that are dropped or closed ------------------------------------------------------

    @Nested
    class Streams {

        @Test
        void aDeclineWhoseStreamIsNeverReadKeepsTheDecisionAndFreesTheRunAfterThePickupTimeout() throws Exception {
            List<List<Message>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            LanguageModel recording = request -> {
                seen.add(request.messages());
                return rules().stream(request);
            };
            Agent agent = agentBuilder(store).model(recording).pickupTimeout(Duration.ofMillis(200)).build();
            AgentResult r = suspend(agent);
            agent.declineToolCall(r.runId(), callId(r), "not today");   // the returned stream is dropped
            assertThatThrownBy(() -> agent.declineToolCall(r.runId(), callId(r), "again"))
                    .isInstanceOf(RunNotSuspendedException.class);
            await("the dropped claim is given back", () -> agent.listSuspendedRuns().total() == 1);
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            assertThat(run.toolCalls()).as("the decline is recorded: nothing waits for a human").isEmpty();
            assertThat(run.interruption()).contains("declined").contains("not read");
            AgentResult done = agent.continueRun(r.runId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            List<Message> last = seen.get(seen.size() - 1);
            assertThat(last.get(last.size() - 1)).isInstanceOfSatisfying(Message.ToolResult.class,
                    tr -> assertThat(tr.result().asText()).isEqualTo("not today"));
            assertThat(bookings).hasValue(0);
        }

        @Test
        void aStreamReadAfterItsPickupTimeoutTakesTheRunBackIfNobodyElseDid() throws Exception {
            Agent agent = agentBuilder(store).pickupTimeout(Duration.ofMillis(100)).build();
            AgentResult r = suspend(agent);
            AgentStream late = agent.approveToolCall(r.runId(), callId(r));
            await("the unread claim is given back", () -> agent.listSuspendedRuns().total() == 1);
            AgentResult done = late.result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(1);
            assertThat(store.find(r.runId())).isEmpty();
        }

        @Test
        void closingAStreamMidAnswerCancelsTheModelCallAndKeepsTheResumedRunAsInterrupted() {
            AtomicBoolean cancelled = new AtomicBoolean();
            LanguageModel chatty = request -> {
                if (request.lastMessage() instanceof Message.User) return rules().stream(request);
                return Stream.iterate(0, i -> i + 1).limit(1000).map(i -> (ModelChunk) new ModelChunk.TextDelta("w" + i + " "))
                        .onClose(() -> cancelled.set(true));
            };
            Agent agent = agentBuilder(store).model(chatty).build();
            AgentResult r = suspend(agent);
            try (AgentStream s = agent.approveToolCall(r.runId(), callId(r))) {
                for (AgentEvent e : s) {
                    if (e instanceof AgentEvent.TextDelta) break;
                }
            }
            assertThat(cancelled).as("the model's stream was closed").isTrue();
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            assertThat(run.interrupted()).isTrue();
            assertThat(run.toolCalls()).isEmpty();
            assertThat(bookings).hasValue(1);
            Agent plain = agentBuilder(store).build();
            assertThat(plain.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).as("the stored result is used").hasValue(1);
        }

        @Test
        void breakingOutOfTheLoopAtTheApprovalEventStillSuspendsTheRun() {
            Agent agent = agentBuilder(store).build();
            String runId;
            try (AgentStream s = agent.stream("Book a flight", RunOptions.DEFAULT)) {
                runId = s.runId();
                for (AgentEvent e : s) {
                    if (e instanceof AgentEvent.ToolCallApproval) break;
                }
            }
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            assertThat(run.runId()).isEqualTo(runId);
            assertThat(run.interrupted()).isFalse();
            assertThat(run.toolCalls()).extracting(c -> c.toolName()).containsExactly("bookFlight");
        }

        @Test
        void closingANewRunBeforeAnyToolRanStoresNothing() {
            Agent agent = agentBuilder(store).model(request -> Stream.of(new ModelChunk.TextDelta("a "),
                    new ModelChunk.TextDelta("b"))).build();
            AgentStream s = agent.stream("hello", RunOptions.DEFAULT);
            assertThat(s.iterator().next().type()).isEqualTo("start");
            s.close();
            assertThat(store.find(s.runId())).isEmpty();
            assertThat(s.outcome()).contains(RunOutcome.FAILED);
        }
    }

    // ---- interrupts ----------------------------------------------------------------------------

    @Nested
    class Interrupts {

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

    // ---- subagents --------------------------------------------------------------------------------

    @Nested
    class Subagents {

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
                public void claimed(String agent, String runId, String action) {
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

    // ---- discarding --------------------------------------------------------------------------------

    @Nested
    class Discarding {

        @Test
        void discardRemovesARunWhoseSnapshotCannotBeRead() {
            Agent agent = agentBuilder(store).build();
            Instant t = clock.instant();
            String runId = uniqueId("unreadable");
            store.insert(new RunSnapshot(runId, agentId, RunStatus.SUSPENDED, null, null, t, t, 1, null, null, "{broken"));
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
            assertThatThrownBy(() -> agent.discardRun(r.runId())).isInstanceOf(dev.baton.RunNotFoundException.class);
        }
    }
}
