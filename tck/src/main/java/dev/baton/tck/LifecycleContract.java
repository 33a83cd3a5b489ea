package dev.baton.tck;

import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.agent.ExpiryReport;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The lifecycle half of the TCK: cancelling runs (racing approvals, with subagents), expiring
 * abandoned runs by policy (with several instances expiring at once), keyset paging of the listing
 * under concurrent inserts and deletes, and the creation time and deadline shown in the listing.
 * Extend it and implement {@link #openStore()} (the same database on every call).
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class LifecycleContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected MutableClock clock;
    protected String agentId;
    protected final AtomicInteger bookings = new AtomicInteger();
    protected final List<List<Message>> modelInputs = new CopyOnWriteArrayList<>();

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5 (see
     * {@link SnapshotStoreContract#testRunnerRunsTheJUnitPlatform()}).
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    @BeforeEach
    void openTheStore() throws Exception {
        store = openStore();
        Certification.record(getClass(), store);
        clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        agentId = uniqueId("tck-lifecycle");
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    protected Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            bookings.incrementAndGet();
            return Map.of("booked", "SFO");
        }).build();
    }

    protected Tool askCity(Duration waitTimeout) {
        return Tool.builder("askCity").waitTimeout(waitTimeout).execute((input, ctx) ->
                ctx.resumeData() == null ? ctx.suspend(Map.of("question", "Which city?")) : Map.of("city", "Rome")).build();
    }

    protected LanguageModel model() {
        LanguageModel rules = DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                .whenUserSays("city", "askCity", Map.of()).build();
        return request -> {
            modelInputs.add(request.messages());
            return rules.stream(request);
        };
    }

    protected Agent.Builder agentBuilder(String id) {
        return Agent.builder(id).model(model()).tools(bookFlight(), askCity(Duration.ofMinutes(5))).store(store).clock(clock)
                .instanceId("tck-" + id);
    }

    protected Agent agent() {
        return agentBuilder(agentId).build();
    }

    protected AgentResult suspend(Agent agent, String prompt, RunOptions options) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate(prompt, options);
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    protected AgentResult suspend(Agent agent) {
        return suspend(agent, "Book a flight", RunOptions.builder().threadId("t").resourceId("u").build());
    }

    protected static String callId(AgentResult r) {
        return r.waitingCalls().get(0).toolCallId();
    }

    @Nested
    class Cancelling {

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
            assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r))).isInstanceOf(RunNotFoundException.class);
            assertThatThrownBy(() -> agent.cancelRun(r.runId(), "again")).isInstanceOf(RunNotFoundException.class);
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

    @Nested
    class Expiry {

        @Test
        void aWaitTimeoutComesFromTheRunElseTheToolElseTheAgentAndIsListed() {
            Agent agent = agentBuilder(agentId).waitTimeout(Duration.ofHours(1)).build();
            AgentResult byAgent = suspend(agent);
            Instant at = clock.instant();
            AgentResult byTool = suspend(agent, "Which city?", RunOptions.DEFAULT);
            Instant toolAt = clock.instant();
            AgentResult byRun = suspend(agent, "Book a flight", RunOptions.builder().waitTimeout(Duration.ofSeconds(30)).build());
            Instant runAt = clock.instant();
            Map<String, AgentRun> listed = new java.util.HashMap<>();
            for (AgentRun run : agent.listSuspendedRuns().runs()) listed.put(run.runId(), run);
            assertThat(listed.get(byAgent.runId()).expiresAt()).isEqualTo(at.plus(Duration.ofHours(1)));
            assertThat(listed.get(byAgent.runId()).toolCalls().get(0).expiresAt()).isEqualTo(at.plus(Duration.ofHours(1)));
            assertThat(listed.get(byTool.runId()).expiresAt()).isEqualTo(toolAt.plus(Duration.ofMinutes(5)));
            assertThat(listed.get(byRun.runId()).expiresAt()).isEqualTo(runAt.plusSeconds(30));
            assertThat(listed.get(byRun.runId()).createdAt()).isEqualTo(runAt);
        }

        @Test
        void withoutAPolicyNothingExpiresAndRunsWithoutATimeoutNeverExpire() {
            Agent keeps = agentBuilder(agentId).waitTimeout(Duration.ofMinutes(1)).build();
            AgentResult r = suspend(keeps);
            clock.advance(Duration.ofDays(3));
            assertThat(keeps.expireDueRuns(10).runs()).isEmpty();
            Agent declines = agentBuilder(agentId + "-2").onExpiry(ExpiryPolicy.decline("too late")).build();
            AgentResult forever = suspend(declines);
            clock.advance(Duration.ofDays(3));
            assertThat(declines.expireDueRuns(10).runs()).isEmpty();
            assertThat(keeps.listSuspendedRuns().runs()).extracting(AgentRun::runId).containsExactly(r.runId());
            assertThat(declines.listSuspendedRuns().runs()).extracting(AgentRun::runId).containsExactly(forever.runId());
        }

        @Test
        void theDeclinePolicyDeclinesExpiredCallsTellsTheModelAndTheRunGoesOn() {
            Agent agent = agentBuilder(agentId).waitTimeout(Duration.ofMinutes(10))
                    .onExpiry(ExpiryPolicy.decline("No answer within 10 minutes")).build();
            AgentResult r = suspend(agent);
            clock.advance(Duration.ofMinutes(9));
            assertThat(agent.expireDueRuns(10).runs()).as("not due yet").isEmpty();
            clock.advance(Duration.ofMinutes(1));
            ExpiryReport report = agent.expireDueRuns(10);
            assertThat(report.handled()).isEqualTo(1);
            ExpiryReport.Expired e = report.runs().get(0);
            assertThat(e.runId()).isEqualTo(r.runId());
            assertThat(e.toolCallIds()).containsExactly(callId(r));
            assertThat(e.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(0);
            List<Message> last = modelInputs.get(modelInputs.size() - 1);
            assertThat(last.get(last.size() - 1)).isInstanceOfSatisfying(Message.ToolResult.class,
                    tr -> assertThat(tr.result().asText()).isEqualTo("No answer within 10 minutes"));
            assertThat(store.find(r.runId())).isEmpty();
        }

        @Test
        void theCancelPolicyCancelsExpiredRuns() {
            Agent agent = agentBuilder(agentId).onExpiry(ExpiryPolicy.cancel("abandoned")).build();
            AgentResult r = suspend(agent, "Which city?", RunOptions.DEFAULT);
            clock.advance(Duration.ofMinutes(5));
            ExpiryReport report = agent.expireDueRuns(10);
            assertThat(report.runs()).singleElement().satisfies(e -> {
                assertThat(e.action()).isEqualTo(ExpiryPolicy.Action.CANCEL);
                assertThat(e.outcome()).isEqualTo(RunOutcome.CANCELLED);
            });
            assertThat(store.find(r.runId())).isEmpty();
        }

        @Test
        void expiryTakesDueRunsSoonestFirstUpToTheLimit() {
            Agent agent = agentBuilder(agentId).onExpiry(ExpiryPolicy.cancel("abandoned")).build();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(suspend(agent, "Book a flight", RunOptions.builder().waitTimeout(Duration.ofMinutes(10 - i)).build())
                        .runId());
            }
            clock.advance(Duration.ofHours(1));
            assertThat(agent.expireDueRuns(2).runs()).extracting(ExpiryReport.Expired::runId)
                    .containsExactly(ids.get(4), ids.get(3));
            assertThat(agent.listSuspendedRuns().total()).isEqualTo(3);
        }

        @Test
        void twoInstancesExpiringAtOnceHandleEachDueRunExactlyOnce() throws Exception {
            Agent a = agentBuilder(agentId).instanceId("expirer-a").waitTimeout(Duration.ofMinutes(1))
                    .onExpiry(ExpiryPolicy.decline("expired")).build();
            Agent b = agentBuilder(agentId).instanceId("expirer-b").waitTimeout(Duration.ofMinutes(1))
                    .onExpiry(ExpiryPolicy.decline("expired")).build();
            Set<String> runs = new HashSet<>();
            for (int i = 0; i < 12; i++) runs.add(suspend(a).runId());
            clock.advance(Duration.ofMinutes(2));
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<ExpiryReport>> both = new ArrayList<>();
                for (Agent x : List.of(a, b)) {
                    both.add(pool.submit(() -> {
                        start.await();
                        ExpiryReport total = x.expireDueRuns(100);
                        return total;
                    }));
                }
                start.countDown();
                List<String> handled = new ArrayList<>();
                for (Future<ExpiryReport> f : both) {
                    for (ExpiryReport.Expired e : f.get(60, TimeUnit.SECONDS).runs()) {
                        if (e.skipped() == null) handled.add(e.runId());
                    }
                }
                assertThat(handled).as("each due run handled once, by one instance").hasSize(12)
                        .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(runs);
                assertThat(a.listSuspendedRuns().total()).isZero();
                assertThat(bookings).hasValue(0);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class KeysetPaging {

        @Test
        void aCursorWalksTheListingPageByPageInOrder() {
            Agent agent = agent();
            for (int i = 0; i < 7; i++) suspend(agent);
            List<String> all = agent.listSuspendedRuns().runs().stream().map(AgentRun::runId).toList();
            AgentListSuspendedRunsResult first = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                    .perPage(3).page(0).build());
            List<String> walked = new ArrayList<>(first.runs().stream().map(AgentRun::runId).toList());
            String cursor = first.nextCursor();
            while (cursor != null) {
                AgentListSuspendedRunsResult page = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                        .perPage(3).cursor(cursor).build());
                assertThat(page.total()).isEqualTo(7);
                walked.addAll(page.runs().stream().map(AgentRun::runId).toList());
                cursor = page.nextCursor();
            }
            assertThat(walked).isEqualTo(all);
        }

        @Test
        void aBadCursorOrACursorWithAPageIsRefusedNamingTheCursor() {
            Agent agent = agent();
            assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(3)
                    .cursor("nonsense").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("cursor");
            assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(3).page(1)
                    .cursor("c1.x").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("cursor");
            assertThatThrownBy(() -> agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                    .cursor("c1.x").build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("perPage");
        }

        /** Runs suspend and are approved while a reader walks the pages: no run that stayed is skipped or repeated. */
        @RepeatedTest(3)
        void cursorPagingIsStableWhileRunsComeAndGo(RepetitionInfo repetition) throws Exception {
            Random random = new Random(777L + repetition.getCurrentRepetition());
            Agent agent = agent();
            List<String> stable = new ArrayList<>();
            for (int i = 0; i < 25; i++) stable.add(suspend(agent).runId());
            AtomicBoolean walking = new AtomicBoolean(true);
            Agent writer = agentBuilder(agentId).instanceId("writer").build();
            long seed = random.nextLong();
            Thread churn = new Thread(() -> {
                Random r = new Random(seed);
                List<AgentResult> mine = new ArrayList<>();
                for (int n = 0; walking.get() && n < 60; n++) {
                    mine.add(writer.generate("Book a flight", RunOptions.DEFAULT));
                    if (!mine.isEmpty() && r.nextBoolean()) {
                        AgentResult gone = mine.remove(r.nextInt(mine.size()));
                        writer.approveToolCall(gone.runId(), callId(gone)).result();
                    }
                }
            });
            churn.start();
            List<String> seen = new ArrayList<>();
            String cursor = null;
            try {
                do {
                    AgentListSuspendedRunsOptions.Builder o = AgentListSuspendedRunsOptions.builder().perPage(1 + random.nextInt(5));
                    AgentListSuspendedRunsResult page = agent.listSuspendedRuns(cursor == null ? o.page(0).build()
                            : o.cursor(cursor).build());
                    page.runs().forEach(run -> seen.add(run.runId()));
                    cursor = page.nextCursor();
                } while (cursor != null);
            } finally {
                walking.set(false);
                churn.join(60_000);
            }
            assertThat(new HashSet<>(seen)).as("no run is repeated").hasSameSizeAs(seen);
            assertThat(seen).as("no run that stayed suspended is skipped").containsAll(stable);
        }
    }
}
