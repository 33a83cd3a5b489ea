package dev.baton.tck;

import static dev.baton.tck.Snapshots.T0;
import static dev.baton.tck.Snapshots.payloadFor;
import static dev.baton.tck.Snapshots.suspended;
import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The storage half of the Baton TCK. Extend it and implement {@link #openStore()}:
 *
 * <pre>{@code
 * public class PostgresSnapshotStoreTest extends SnapshotStoreContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open(url); }
 * }
 * }</pre>
 *
 * <p>Each test uses agent ids of its own, so the store need not be emptied between tests, and
 * several suites can share one database. {@code openStore()} must open the <em>same</em> database
 * every time: the restart tests close a store and open a new one to find the runs again.
 *
 * <p>Groups: {@code Persistence}, {@code OddInput}, {@code Filters}, {@code Order},
 * {@code Paging}, {@code AgainstAReferenceModel}, {@code CompareAndSet}, {@code Validation} and
 * {@code Closing} hold for every store; {@code Faults} runs when the test supplies
 * {@link #faults()}; {@code Capabilities} checks what the store declares (the store clock only
 * when it declares {@link StoreCapability#STORE_CLOCK}).
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class SnapshotStoreContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    /** The store of the running test. */
    protected SnapshotStore store;
    /** An agent id owned by the running test. */
    protected String agent;

    /**
     * The hook for the {@code Faults} tests: a store whose link to its backend the TCK may cut or
     * silence. Empty by default (those tests are then skipped, and the report says so); override it
     * for a store that talks to a server, e.g. with {@link StoreFaults#throughProxy}. Called once
     * per {@code Faults} test; the TCK closes what it returns.
     */
    protected Optional<StoreFaults> faults() throws Exception {
        return Optional.empty();
    }

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5. Maven
     * Surefire 2.x (Maven 3.8's default) runs the public {@code test*} methods of a public class as
     * plain tests instead of the contract's tests; this one then fails, saying why, where the build
     * would otherwise run none of the contract's tests and pass.
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    @BeforeEach
    void openTheStore() throws Exception {
        store = openStore();
        agent = uniqueId("tck-agent");
        Certification.record(getClass(), store);
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    /** Closes the store and opens a new one on the same database, as a restarted server would. */
    protected void restart() throws Exception {
        store.close();
        store = null;
        store = openStore();
    }

    protected RunSnapshot insert(RunSnapshot s) {
        assertThat(store.insert(s)).as("insert of %s", s.runId()).isTrue();
        return s;
    }

    protected RunQuery.Builder query() {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600));
    }

    protected List<String> ids(RunPage page) {
        return page.items().stream().map(RunSnapshot::runId).toList();
    }

    protected RunSnapshot claim(RunSnapshot s, Instant leaseExpiresAt) {
        RunSnapshot c = s.claimed("instance-1", leaseExpiresAt, s.payload());
        assertThat(store.compareAndSet(s.version(), c)).isTrue();
        return c;
    }

    @Nested
    class Persistence {

        @Test
        void findReturnsEveryFieldAsInserted() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "thread-1", "user-1", 42));
            assertThat(store.find(s.runId())).contains(s);
        }

        @Test
        void threadAndResourceMayBeAbsent() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), null, null, 0));
            assertThat(store.find(s.runId())).contains(s);
            assertThat(ids(store.list(query().build()))).containsExactly(s.runId());
        }

        @Test
        void resumingSnapshotKeepsItsLease() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot c = claim(s, T0.plusSeconds(30));
            assertThat(store.find(s.runId())).contains(c);
        }

        @Test
        void insertOfAnExistingRunIdIsRefusedAndChangesNothing() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot other = new RunSnapshot(s.runId(), agent, RunStatus.SUSPENDED, "t2", "r2", T0, T0, 1, null,
                    null, "{\"other\":true}");
            assertThat(store.insert(other)).isFalse();
            assertThat(store.find(s.runId())).contains(s);
        }

        @Test
        void findOfAnUnknownRunIsEmpty() {
            assertThat(store.find(uniqueId("missing"))).isEmpty();
        }

        @Test
        void deleteRemovesTheRunFromFindAndList() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            assertThat(store.delete(s.runId(), 1)).isTrue();
            assertThat(store.find(s.runId())).isEmpty();
            assertThat(store.list(query().build()).total()).isZero();
            assertThat(store.list(query().threadId("t").build()).total()).isZero();
        }

        @Test
        void deleteAtAnotherVersionChangesNothing() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            assertThat(store.delete(s.runId(), 2)).isFalse();
            assertThat(store.find(s.runId())).contains(s);
        }

        @Test
        void deleteOfAnUnknownRunReturnsFalse() {
            assertThat(store.delete(uniqueId("missing"), 1)).isFalse();
        }

        @Test
        void runsSurviveClosingAndReopeningTheStore() throws Exception {
            RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
            RunSnapshot b = insert(suspended(agent, uniqueId("run"), "t", "r", 2));
            RunSnapshot c = claim(b, T0.plusSeconds(5000));
            restart();
            assertThat(store.find(a.runId())).contains(a);
            assertThat(store.find(b.runId())).contains(c);
            assertThat(ids(store.list(query().threadId("t").build()))).containsExactly(a.runId());
            assertThat(store.delete(a.runId(), 1)).isTrue();
        }

        @Test
        void payloadIsStoredVerbatim() {
            String payload = "{\"text\":\"h\u00e9llo \u4e16\u754c \ud83d\ude80 'single' \\\"double\\\" back\\\\slash"
                    + " \\u0000 nul %_*?[]{}$ \\n\\t\",  \"n\" : 1.50 , \"z\":[ ]}";
            RunSnapshot s = new RunSnapshot(uniqueId("run"), agent, RunStatus.SUSPENDED, "t", "r", T0, T0, 1, null, null,
                    payload);
            insert(s);
            assertThat(store.find(s.runId()).orElseThrow().payload()).isEqualTo(payload);
            assertThat(store.list(query().build()).items().get(0).payload()).isEqualTo(payload);
        }

        @Test
        void largePayloadOfTwoMegabytesRoundTrips() {
            StringBuilder b = new StringBuilder("{\"blob\":\"");
            Random r = new Random(7);
            while (b.length() < 2 * 1024 * 1024) b.append((char) ('a' + r.nextInt(26))).append("\u00e9");
            String payload = b.append("\"}").toString();
            RunSnapshot s = new RunSnapshot(uniqueId("run"), agent, RunStatus.SUSPENDED, null, null, T0, T0, 1, null,
                    null, payload);
            insert(s);
            assertThat(store.find(s.runId()).orElseThrow().payload()).isEqualTo(payload);
        }
    }

    /** Ids that break naive escaping in SQL, LIKE, Redis patterns, Mongo operators and key syntax. */
    static Stream<String> oddIds() {
        return Stream.of("it's", "double\"quote", "100%", "under_score", "back\\slash", "star*", "question?",
                "[brackets]", "{hash-tag}", "a:b:c", "with space", "$ne", "{\"$gt\": \"\"}", "dotted.name.x",
                "'; DROP TABLE runs; --", "SELECT", "caf\u00e9-\u65e5\u672c-\ud83d\ude00", "tab\there", "%", "*", "_");
    }

    @Nested
    class OddInput {

        @ParameterizedTest
        @MethodSource("dev.baton.tck.SnapshotStoreContract#oddIds")
        void oddIdsAreStoredAndMatchedLiterally(String odd) {
            String oddAgent = agent + odd;
            RunSnapshot s = insert(suspended(oddAgent, agent + "-run-" + odd, odd, odd, 5));
            // decoys whose ids a pattern or an operator made of `odd` could match
            insert(suspended(oddAgent, agent + "-run-decoy", odd + "x", "x" + odd, 6));
            insert(suspended(oddAgent, agent + "-run-decoy2", "plain", "plain", 7));
            insert(suspended(agent + "other", agent + "-run-other-" + odd, odd, odd, 8));

            assertThat(store.find(s.runId())).contains(s);
            RunQuery.Builder q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
            assertThat(ids(store.list(q.threadId(odd).build()))).containsExactly(s.runId());
            q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
            assertThat(ids(store.list(q.resourceId(odd).build()))).containsExactly(s.runId());
            q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
            assertThat(store.list(q.threadId(odd).resourceId(odd).build()).total()).isEqualTo(1);
            q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
            assertThat(store.list(q.build()).total()).isEqualTo(3);
            RunSnapshot c = s.claimed("owner " + odd, T0.plusSeconds(99), payloadFor(odd));
            assertThat(store.compareAndSet(1, c)).isTrue();
            assertThat(store.find(s.runId())).contains(c);
            assertThat(store.delete(s.runId(), 2)).isTrue();
            assertThat(store.find(s.runId())).isEmpty();
        }
    }

    @Nested
    class Filters {

        @Test
        void listsOnlyRunsOfTheQueriedAgent() {
            RunSnapshot mine = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            insert(suspended(agent + "-other", uniqueId("run"), "t", "r", 1));
            insert(suspended(agent.substring(0, agent.length() - 1), uniqueId("run"), "t", "r", 2));
            assertThat(ids(store.list(query().build()))).containsExactly(mine.runId());
            assertThat(ids(store.list(query().threadId("t").resourceId("r").build()))).containsExactly(mine.runId());
        }

        @Test
        void threadFilterIsAnExactMatch() {
            RunSnapshot a = insert(suspended(agent, uniqueId("run"), "thread", "r", 0));
            insert(suspended(agent, uniqueId("run"), "thread-2", "r", 1));
            insert(suspended(agent, uniqueId("run"), "Thread", "r", 2));
            insert(suspended(agent, uniqueId("run"), null, "r", 3));
            RunPage page = store.list(query().threadId("thread").build());
            assertThat(ids(page)).containsExactly(a.runId());
            assertThat(page.total()).isEqualTo(1);
        }

        @Test
        void resourceFilterIsAnExactMatch() {
            RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "user", 0));
            insert(suspended(agent, uniqueId("run"), "t", "user ", 1));
            insert(suspended(agent, uniqueId("run"), "t", "USER", 2));
            insert(suspended(agent, uniqueId("run"), "t", null, 3));
            assertThat(ids(store.list(query().resourceId("user").build()))).containsExactly(a.runId());
        }

        @Test
        void threadAndResourceCombineWithAnd() {
            RunSnapshot both = insert(suspended(agent, uniqueId("run"), "t1", "r1", 0));
            insert(suspended(agent, uniqueId("run"), "t1", "r2", 1));
            insert(suspended(agent, uniqueId("run"), "t2", "r1", 2));
            assertThat(ids(store.list(query().threadId("t1").resourceId("r1").build()))).containsExactly(both.runId());
        }

        @Test
        void fromDateIsInclusive() {
            RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
            RunSnapshot after = insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
            insert(suspended(agent, uniqueId("run"), "t", "r", 999));
            assertThat(ids(store.list(query().createdFrom(T0.plusMillis(1000)).build())))
                    .containsExactly(after.runId(), at.runId());
        }

        @Test
        void toDateIsInclusive() {
            RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
            RunSnapshot before = insert(suspended(agent, uniqueId("run"), "t", "r", 999));
            insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
            assertThat(ids(store.list(query().createdTo(T0.plusMillis(1000)).build())))
                    .containsExactly(at.runId(), before.runId());
        }

        @Test
        void equalFromAndToDatesSelectThatInstant() {
            RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
            insert(suspended(agent, uniqueId("run"), "t", "r", 999));
            insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
            Instant t = T0.plusMillis(1000);
            assertThat(ids(store.list(query().createdFrom(t).createdTo(t).build()))).containsExactly(at.runId());
        }

        /**
         * Runs created exactly at the bounds are listed whatever their id: ids at the top and the
         * bottom of every string order (U+FFFF, characters above U+FFFF, U+0001) catch a range
         * that is bounded by a sentinel id instead of by the date alone.
         */
        @Test
        void dateBoundsAreInclusiveForEveryRunId() {
            Instant from = T0.plusMillis(1000);
            Instant to = T0.plusMillis(2000);
            List<String> atBounds = new ArrayList<>();
            List<String> outside = new ArrayList<>();
            for (String p : List.of("\uffff\uffff\uffff\uffff", "\uffff\uffff\uffff", "\ud83d\ude00", "\udbff\udfff\udbff\udfff",
                    "\uefff", "\u0001", "~")) {
                String id = p + "-" + agent;
                atBounds.add(insert(run(id + "-to", to)).runId());
                atBounds.add(insert(run(id + "-from", from)).runId());
                outside.add(insert(run(id + "-after", to.plusMillis(1))).runId());
                outside.add(insert(run(id + "-before", from.minusMillis(1))).runId());
            }
            RunPage both = store.list(query().createdFrom(from).createdTo(to).build());
            assertThat(ids(both)).containsExactlyInAnyOrderElementsOf(atBounds);
            assertThat(both.total()).isEqualTo(atBounds.size());
            assertThat(store.list(query().createdFrom(from).createdTo(to).threadId("t").countOnly().build()).total())
                    .isEqualTo(atBounds.size());
            List<String> upTo = ids(store.list(query().createdTo(to).build()));
            assertThat(upTo).hasSize(atBounds.size() + outside.size() / 2).containsAll(atBounds);
            List<String> onwards = ids(store.list(query().createdFrom(from).resourceId("r").build()));
            assertThat(onwards).hasSize(atBounds.size() + outside.size() / 2).containsAll(atBounds);
            List<String> exactlyTo = ids(store.list(query().createdFrom(to).createdTo(to).build()));
            assertThat(exactlyTo).containsExactlyInAnyOrderElementsOf(atBounds.stream().filter(id -> id.endsWith("-to")).toList());
            List<String> exactlyFrom = ids(store.list(query().createdFrom(from).createdTo(from).page(0, 100).build()));
            assertThat(exactlyFrom).containsExactlyInAnyOrderElementsOf(atBounds.stream().filter(id -> id.endsWith("-from")).toList());
        }

        private RunSnapshot run(String runId, Instant created) {
            return new RunSnapshot(runId, agent, RunStatus.SUSPENDED, "t", "r", created, created, 1, null, null, "{}");
        }

        @Test
        void datesFilterCreationTimeNotSuspensionTime() {
            Instant created = T0.plusSeconds(10);
            RunSnapshot s = insert(new RunSnapshot(uniqueId("run"), agent, RunStatus.SUSPENDED, "t", "r", created,
                    created.plusSeconds(1000), 1, null, null, "{}"));
            assertThat(ids(store.list(query().createdFrom(created).createdTo(created).build())))
                    .containsExactly(s.runId());
            assertThat(store.list(query().createdFrom(created.plusSeconds(1000)).build()).total()).isZero();
        }

        @Test
        void datesCombineWithThreadAndResource() {
            RunSnapshot hit = insert(suspended(agent, uniqueId("run"), "t", "r", 500));
            insert(suspended(agent, uniqueId("run"), "t", "r", 5000));
            insert(suspended(agent, uniqueId("run"), "t", "other", 500));
            insert(suspended(agent, uniqueId("run"), "other", "r", 500));
            RunQuery q = query().threadId("t").resourceId("r").createdFrom(T0).createdTo(T0.plusMillis(1000)).build();
            assertThat(ids(store.list(q))).containsExactly(hit.runId());
        }

        @Test
        void aRunWithALiveLeaseIsNotListedAsSuspended() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot waiting = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
            Instant now = T0.plusSeconds(100);
            claim(s, now.plusMillis(1));
            RunQuery q = RunQuery.forAgent(agent, now).threadId("t").build();
            assertThat(ids(store.list(q))).containsExactly(waiting.runId());
            assertThat(store.list(q).total()).isEqualTo(1);
        }

        @Test
        void aRunWhoseLeaseExpiredIsListedAsSuspendedAgain() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            Instant now = T0.plusSeconds(100);
            claim(s, now);   // expires exactly now: no longer held
            assertThat(ids(store.list(RunQuery.forAgent(agent, now).build()))).containsExactly(s.runId());
            assertThat(ids(store.list(RunQuery.forAgent(agent, now).threadId("t").resourceId("r").build())))
                    .containsExactly(s.runId());
            assertThat(store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).build()).total()).isZero();
        }

        @Test
        void statusResumingListsOnlyLiveLeasesAndNullStatusListsAll() {
            RunSnapshot live = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot expired = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
            RunSnapshot waiting = insert(suspended(agent, uniqueId("run"), "t", "r", 2));
            Instant now = T0.plusSeconds(100);
            claim(live, now.plusSeconds(30));
            claim(expired, now.minusSeconds(1));
            RunPage resuming = store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).build());
            assertThat(ids(resuming)).containsExactly(live.runId());
            assertThat(resuming.items().get(0).leaseOwner()).isEqualTo("instance-1");
            assertThat(ids(store.list(RunQuery.forAgent(agent, now).build())))
                    .containsExactly(waiting.runId(), expired.runId());
            assertThat(ids(store.list(RunQuery.forAgent(agent, now).status(null).build())))
                    .containsExactly(waiting.runId(), expired.runId(), live.runId());
            assertThat(store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).threadId("t").countOnly()
                    .build()).total()).isEqualTo(1);
        }
    }

    @Nested
    class Order {

        @Test
        void newestCreationFirst() {
            RunSnapshot old = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot newest = insert(suspended(agent, uniqueId("run"), "t", "r", 2000));
            RunSnapshot mid = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
            assertThat(ids(store.list(query().build()))).containsExactly(newest.runId(), mid.runId(), old.runId());
            assertThat(ids(store.list(query().threadId("t").build())))
                    .containsExactly(newest.runId(), mid.runId(), old.runId());
        }

        @Test
        void tiesAreBrokenByRunIdDescendingInBinaryOrder() {
            String p = agent + "-";
            List<String> runIds = new ArrayList<>(List.of(p + "A", p + "a", p + "B", p + "b", p + "0", p + "a-1", p + "a1", p + "Z"));
            Collections.shuffle(runIds, new Random(11));
            for (String id : runIds) insert(suspended(agent, id, "t", "r", 77));
            List<String> expected = runIds.stream().sorted(Collections.reverseOrder()).toList();
            assertThat(ids(store.list(query().build()))).containsExactlyElementsOf(expected);
            assertThat(ids(store.list(query().resourceId("r").build()))).containsExactlyElementsOf(expected);
            assertThat(ids(store.list(query().threadId("t").resourceId("r").page(2, 3).build())))
                    .containsExactlyElementsOf(expected.subList(2, 5));
        }
    }

    @Nested
    class Paging {

        List<RunSnapshot> seed(int n) {
            List<RunSnapshot> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                // every third pair shares a creation time, to exercise the tie-breaker across page borders
                all.add(insert(suspended(agent, agent + String.format("-%03d", i), "t", "r", (i / 2) * 10L)));
            }
            all.sort(RunQuery.ORDER);
            return all;
        }

        @Test
        void aPageIsASliceOfTheOrderedMatches() {
            List<RunSnapshot> all = seed(25);
            RunPage page = store.list(query().page(10, 10).build());
            assertThat(page.items()).containsExactlyElementsOf(all.subList(10, 20));
            assertThat(page.total()).isEqualTo(25);
        }

        @Test
        void totalCountsAllMatchesBeforePaging() {
            seed(12);
            insert(suspended(agent, uniqueId("run"), "elsewhere", "r", 0));
            assertThat(store.list(query().threadId("t").page(0, 5).build()).total()).isEqualTo(12);
            assertThat(store.list(query().page(0, 5).build()).total()).isEqualTo(13);
        }

        @Test
        void thePagesTogetherListEveryMatchOnce() {
            List<RunSnapshot> all = seed(23);
            List<RunSnapshot> paged = new ArrayList<>();
            for (int page = 0; page < 5; page++) paged.addAll(store.list(query().page(page * 5L, 5).build()).items());
            assertThat(paged).containsExactlyElementsOf(all);
        }

        @Test
        void aPagePastTheEndIsEmptyWithTheSameTotal() {
            seed(7);
            RunPage page = store.list(query().page(100, 5).build());
            assertThat(page.items()).isEmpty();
            assertThat(page.total()).isEqualTo(7);
        }

        @Test
        void limitZeroGivesOnlyTheTotal() {
            seed(4);
            RunPage page = store.list(query().countOnly().build());
            assertThat(page.items()).isEmpty();
            assertThat(page.total()).isEqualTo(4);
        }

        @Test
        void withoutALimitEveryMatchIsListed() {
            List<RunSnapshot> all = seed(30);
            assertThat(store.list(query().build()).items()).containsExactlyElementsOf(all);
        }

        @Test
        void anEmptyResultHasTotalZero() {
            RunPage page = store.list(query().threadId("nobody").page(0, 10).build());
            assertThat(page.items()).isEmpty();
            assertThat(page.total()).isZero();
        }
    }

    /**
     * Random data and random queries, checked against {@link RunQuery#matches} and
     * {@link RunQuery#ORDER} computed here in Java: the store must give the same answers.
     */
    @Nested
    class AgainstAReferenceModel {

        @Test
        void randomQueriesAgreeWithTheReferenceModel() {
            Random random = new Random(20261202L);
            List<String> agents = List.of(agent, agent + "-b");
            List<String> threads = List.of("t0", "t1", "t2");
            List<String> resources = List.of("r0", "r1");
            Instant now = T0.plusSeconds(50);
            List<RunSnapshot> all = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                RunSnapshot s = suspended(agents.get(random.nextInt(2)), agent + "-m" + i,
                        random.nextInt(5) == 0 ? null : threads.get(random.nextInt(3)),
                        random.nextInt(5) == 0 ? null : resources.get(random.nextInt(2)),
                        random.nextInt(40) * 1000L);
                insert(s);
                int lease = random.nextInt(4);
                if (lease == 1) s = claim(s, now.plusSeconds(10));
                if (lease == 2) s = claim(s, now.minusSeconds(10));
                all.add(s);
            }
            for (int i = 0; i < 150; i++) {
                RunQuery.Builder b = RunQuery.forAgent(agents.get(random.nextInt(2)), now);
                if (random.nextBoolean()) b.threadId(threads.get(random.nextInt(3)));
                if (random.nextInt(3) == 0) b.resourceId(resources.get(random.nextInt(2)));
                if (random.nextInt(3) == 0) b.createdFrom(T0.plusMillis(random.nextInt(40) * 1000L));
                if (random.nextInt(3) == 0) b.createdTo(T0.plusMillis(random.nextInt(40) * 1000L));
                int status = random.nextInt(4);
                b.status(status == 0 ? null : status == 1 ? RunStatus.RESUMING : RunStatus.SUSPENDED);
                if (random.nextBoolean()) b.page(random.nextInt(4) * 3L, 1 + random.nextInt(5));
                RunQuery q = b.build();
                List<RunSnapshot> expected = all.stream().filter(q::matches).sorted(RunQuery.ORDER).toList();
                long total = expected.size();
                if (q.limit() != null) {
                    int from = (int) Math.min(q.offset(), expected.size());
                    expected = expected.subList(from, Math.min(expected.size(), from + q.limit()));
                }
                RunPage page = store.list(q);
                assertThat(page.items()).as("query %s", q).containsExactlyElementsOf(expected);
                assertThat(page.total()).as("total of %s", q).isEqualTo(total);
            }
        }
    }

    @Nested
    class CompareAndSet {

        @Test
        void replacesTheRunAtTheExpectedVersion() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot next = s.suspended(T0.plusSeconds(9), "{\"step\":2}");
            assertThat(store.compareAndSet(1, next)).isTrue();
            assertThat(store.find(s.runId())).contains(next);
            assertThat(store.list(query().threadId("t").build()).items()).containsExactly(next);
        }

        @Test
        void aStaleVersionLosesAndChangesNothing() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunSnapshot v2 = s.suspended(T0.plusSeconds(1), "{\"v\":2}");
            assertThat(store.compareAndSet(1, v2)).isTrue();
            RunSnapshot stale = s.claimed("late", T0.plusSeconds(60), "{\"v\":\"stale\"}");
            assertThat(store.compareAndSet(1, stale)).isFalse();
            assertThat(store.find(s.runId())).contains(v2);
        }

        @Test
        void aMissingRunIsNotCreated() {
            RunSnapshot ghost = suspended(agent, uniqueId("ghost"), "t", "r", 0).suspended(T0, "{}");
            assertThat(store.compareAndSet(1, ghost)).isFalse();
            assertThat(store.find(ghost.runId())).isEmpty();
            assertThat(store.list(query().build()).total()).isZero();
        }

        @Test
        void claimingMovesTheRunOutOfTheSuspendedListing() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            RunQuery q = RunQuery.forAgent(agent, T0).threadId("t").build();
            assertThat(store.list(q).total()).isEqualTo(1);
            RunSnapshot c = claim(s, T0.plusSeconds(60));
            assertThat(store.list(q).total()).isZero();
            RunSnapshot back = c.suspended(T0.plusSeconds(2), "{\"again\":true}");
            assertThat(store.compareAndSet(2, back)).isTrue();
            assertThat(store.list(q).items()).containsExactly(back);
        }

        @Test
        void exactlyOneOfSixteenConcurrentClaimsWins() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                for (int round = 0; round < 30; round++) {
                    RunSnapshot s = insert(suspended(agent, uniqueId("race"), "t", "r", round));
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<Boolean>> results = new ArrayList<>();
                    for (int i = 0; i < 16; i++) {
                        String owner = "owner-" + i;
                        results.add(pool.submit(() -> {
                            start.await();
                            return store.compareAndSet(1, s.claimed(owner, T0.plusSeconds(60), "{\"by\":\"" + owner + "\"}"));
                        }));
                    }
                    start.countDown();
                    int wins = 0;
                    for (Future<Boolean> f : results) if (f.get(30, TimeUnit.SECONDS)) wins++;
                    assertThat(wins).as("winners in round %d", round).isEqualTo(1);
                    RunSnapshot stored = store.find(s.runId()).orElseThrow();
                    assertThat(stored.version()).isEqualTo(2);
                    assertThat(stored.payload()).isEqualTo("{\"by\":\"" + stored.leaseOwner() + "\"}");
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void concurrentIncrementsNeverLoseAnUpdate() throws Exception {
            RunSnapshot s = insert(suspended(agent, uniqueId("counter"), "t", "r", 0));
            int threads = 8;
            int perThread = 15;
            AtomicInteger conflicts = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    fs.add(pool.submit(() -> {
                        start.await();
                        for (int done = 0; done < perThread; ) {
                            RunSnapshot cur = store.find(s.runId()).orElseThrow();
                            if (store.compareAndSet(cur.version(), cur.suspended(T0, "{\"n\":" + cur.version() + "}"))) done++;
                            else conflicts.incrementAndGet();
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : fs) f.get(120, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            RunSnapshot last = store.find(s.runId()).orElseThrow();
            assertThat(last.version()).isEqualTo(1 + threads * perThread);
            assertThat(last.payload()).isEqualTo("{\"n\":" + (threads * perThread) + "}");
        }

        @Test
        void aDeleteAndAClaimAtTheSameVersionCannotBothWin() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 20; round++) {
                    RunSnapshot s = insert(suspended(agent, uniqueId("dc"), "t", "r", round));
                    CountDownLatch start = new CountDownLatch(1);
                    Future<Boolean> del = pool.submit(() -> { start.await(); return store.delete(s.runId(), 1); });
                    Future<Boolean> cas = pool.submit(() -> {
                        start.await();
                        return store.compareAndSet(1, s.claimed("x", T0.plusSeconds(9), "{}"));
                    });
                    start.countDown();
                    boolean d = del.get(30, TimeUnit.SECONDS);
                    boolean c = cas.get(30, TimeUnit.SECONDS);
                    assertThat(d ^ c).as("exactly one of delete=%s cas=%s", d, c).isTrue();
                    assertThat(store.find(s.runId()).isPresent()).isEqualTo(c);
                    if (c) assertThat(store.delete(s.runId(), 2)).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class Validation {

        @Test
        void queriesRejectANegativeOffsetOrLimit() {
            assertThatThrownBy(() -> query().page(-1, 5).build()).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> query().page(0, -1).build()).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void describeNamesTheStore() {
            assertThat(store.describe()).isNotBlank();
        }
    }

    /** A store's {@code close()}: harmless twice, and a closed store refuses calls clearly. */
    @Nested
    class Closing {

        @Test
        void closingTwiceIsHarmless() throws Exception {
            SnapshotStore other = openStore();
            other.close();
            assertThatCode(other::close).as("a second close() of %s", other.describe()).doesNotThrowAnyException();
        }

        @Test
        void everyCallOnAClosedStoreFailsWithAStorageExceptionSayingItIsClosed() throws Exception {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            SnapshotStore closed = openStore();
            closed.close();
            Map<String, Callable<?>> calls = everyCall(closed, s);
            for (Map.Entry<String, Callable<?>> call : calls.entrySet()) {
                assertThatThrownBy(() -> call.getValue().call()).as("%s on a closed store", call.getKey())
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("closed");
            }
        }

        @Test
        void closingOneStoreLeavesAnotherOnTheSameDatabaseWorking() throws Exception {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            SnapshotStore other = openStore();
            assertThat(other.find(s.runId())).contains(s);
            other.close();
            assertThat(store.find(s.runId())).contains(s);
            RunSnapshot t = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
            assertThat(ids(store.list(query().build()))).containsExactly(t.runId(), s.runId());
        }
    }

    /**
     * A backend that goes away or stops answering: every call fails with a
     * {@link StorageException} naming the store (and the run), within the store's timeout. Needs
     * {@link #faults()}; skipped without it.
     */
    @Nested
    class Faults {

        private StoreFaults open() throws Exception {
            Optional<StoreFaults> f = faults();
            assumeTrue(f.isPresent(), "no StoreFaults hook: the test does not override faults()");
            return f.get();
        }

        @Test
        void aCutConnectionFailsEveryCallWithAStorageExceptionNamingTheStoreAndTheRun() throws Exception {
            try (StoreFaults f = open()) {
                RunSnapshot s = seed(f.store());
                f.cut();
                everyCallFails(f, s, "the connection was cut");
            }
        }

        @Test
        void aSilentBackendFailsEveryCallWithinTheTimeoutInsteadOfHanging() throws Exception {
            try (StoreFaults f = open()) {
                RunSnapshot s = seed(f.store());
                try {
                    f.silence();
                } catch (UnsupportedOperationException e) {
                    assumeTrue(false, "the StoreFaults hook cannot silence the backend: " + e.getMessage());
                }
                everyCallFails(f, s, "the backend went silent");
            }
        }

        private RunSnapshot seed(SnapshotStore faulty) {
            RunSnapshot s = suspended(agent, uniqueId("run"), "t", "r", 0);
            assertThat(faulty.insert(s)).as("insert through the StoreFaults store before the fault").isTrue();
            assertThat(faulty.find(s.runId())).contains(s);
            return s;
        }

        private void everyCallFails(StoreFaults f, RunSnapshot s, String fault) throws Exception {
            SnapshotStore faulty = f.store();
            String name = faulty.describe();
            Duration limit = f.callTimeout().plusSeconds(10);
            Map<String, Callable<?>> calls = everyCall(faulty, s);
            ExecutorService pool = Executors.newFixedThreadPool(calls.size(), r -> {
                Thread t = new Thread(r, "tck-faults");
                t.setDaemon(true);
                return t;
            });
            List<String> problems = new ArrayList<>();
            try {
                Map<String, Future<?>> running = new LinkedHashMap<>();
                calls.forEach((op, call) -> running.put(op, pool.submit(call)));
                long deadline = System.nanoTime() + limit.toNanos();
                for (Map.Entry<String, Future<?>> e : running.entrySet()) {
                    String op = e.getKey();
                    try {
                        Object result = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        problems.add(op + " returned " + result + " instead of failing");
                    } catch (TimeoutException hung) {
                        problems.add(op + " still blocked " + limit.toSeconds() + " s after " + fault
                                + " (callTimeout " + f.callTimeout() + " + 10 s): calls must time out");
                    } catch (ExecutionException failed) {
                        Throwable t = failed.getCause();
                        if (!(t instanceof StorageException)) {
                            problems.add(op + " threw " + t + " instead of a StorageException");
                        } else if (!String.valueOf(t.getMessage()).contains(name)) {
                            problems.add(op + ": the message does not name the store ('" + name + "'): " + t.getMessage());
                        } else if (!op.startsWith("list") && !t.getMessage().contains(op.equals("insert") ? fresh(s).runId() : s.runId())) {
                            problems.add(op + ": the message does not name the run: " + t.getMessage());
                        }
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(problems).as("calls after %s, on %s", fault, name).isEmpty();
        }
    }

    private static RunSnapshot fresh(RunSnapshot s) {
        return suspended(s.agentId(), s.runId() + "-new", "t", "r", 1);
    }

    /** One call of each kind on {@code target}, about run {@code s} (insert: of a new run). */
    private Map<String, Callable<?>> everyCall(SnapshotStore target, RunSnapshot s) {
        Map<String, Callable<?>> calls = new LinkedHashMap<>();
        calls.put("insert", () -> target.insert(fresh(s)));
        calls.put("find", () -> target.find(s.runId()));
        calls.put("compare-and-set", () -> target.compareAndSet(1, s.claimed("tck", T0.plusSeconds(60), "{}")));
        calls.put("delete", () -> target.delete(s.runId(), 1));
        calls.put("list", () -> target.list(RunQuery.forAgent(s.agentId(), T0.plusSeconds(3600)).page(0, 10).build()));
        calls.put("list (count only)", () -> target.list(RunQuery.forAgent(s.agentId(), T0.plusSeconds(3600)).countOnly().build()));
        return calls;
    }

    /** What the store declares in {@link SnapshotStore#capabilities()}, and the store clock when declared. */
    @Nested
    class Capabilities {

        @Test
        void theDeclaredCapabilitiesAreTheSameOnEveryCallAndEveryOpen() throws Exception {
            Set<StoreCapability> declared = store.capabilities();
            assertThat(declared).isNotNull().isEqualTo(store.capabilities());
            try (SnapshotStore other = openStore()) {
                assertThat(other.capabilities()).as("capabilities of a second store on the same database").isEqualTo(declared);
            }
        }

        @Test
        void nowReadsTheStoresClockIfAndOnlyIfTheStoreDeclaresStoreClock() {
            if (!store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
                assertThatThrownBy(store::now).isInstanceOf(UnsupportedOperationException.class);
                return;
            }
            Instant before = Instant.now();
            Instant first = store.now();
            Instant second = store.now();
            assertThat(first).isNotNull();
            assertThat(Duration.between(before, first).abs()).as("store clock %s vs this machine's %s", first, before)
                    .isLessThan(Duration.ofMinutes(5));
            assertThat(second).as("a second reading of the store clock").isAfterOrEqualTo(first.minusSeconds(1));
        }
    }
}
