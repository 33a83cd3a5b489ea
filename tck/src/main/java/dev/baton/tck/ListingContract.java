package dev.baton.tck;

import static dev.baton.tck.Snapshots.T0;
import static dev.baton.tck.Snapshots.payloadFor;
import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.RunStatus;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The listing half of the TCK that Baton 0.2 added to the store's duties: the summary and the
 * deadline stored beside the payload, listings that leave payloads unread, keyset paging with a
 * cursor (stable while runs come and go), and finding runs whose wait has expired by their
 * deadline. Extend it and implement {@link #openStore()} (the same database on every call).
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class ListingContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected String agent;

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
        agent = uniqueId("tck-listing");
        Certification.record(getClass(), store);
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    /** The run id of the run this test calls {@code name}: unique to the test, since run ids are unique in a store. */
    protected String id(String name) {
        return agent + "/" + name;
    }

    /** A suspended run created {@code offset} ms after T0, with a summary, and a deadline if {@code expires} is set. */
    protected RunSnapshot run(String name, String thread, long offset, Instant expires) {
        String runId = id(name);
        Instant created = T0.plusMillis(offset);
        return new RunSnapshot(runId, agent, RunStatus.SUSPENDED, thread, "u", created, created, 1, null, null,
                payloadFor(runId), expires, "{\"calls\":[],\"run\":" + Snapshots.json(runId) + "}");
    }

    protected RunSnapshot insert(RunSnapshot s) {
        assertThat(store.insert(s)).isTrue();
        return s;
    }

    /** The names of {@code runs} (their ids without this test's prefix). */
    protected List<String> ids(List<RunSnapshot> runs) {
        return runs.stream().map(r -> r.runId().startsWith(agent + "/") ? r.runId().substring(agent.length() + 1) : r.runId())
                .toList();
    }

    protected RunQuery.Builder query() {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600));
    }

    @Nested
    class SummaryAndDeadline {

        @Test
        void theSummaryAndTheDeadlineAreStoredAndReturnedUnchanged() {
            RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
            assertThat(store.find(id("r1"))).contains(s);
            RunSnapshot listed = store.list(query().build()).items().get(0);
            assertThat(listed.summary()).isEqualTo(s.summary());
            assertThat(listed.expiresAt()).isEqualTo(T0.plusSeconds(90));
        }

        @Test
        void aCompareAndSetReplacesTheSummaryAndTheDeadline() {
            RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
            RunSnapshot next = s.suspended(T0.plusSeconds(5), s.payload() + " ", null, "{\"calls\":[1]}");
            assertThat(store.compareAndSet(1, next)).isTrue();
            RunSnapshot back = store.find(id("r1")).orElseThrow();
            assertThat(back.summary()).isEqualTo("{\"calls\":[1]}");
            assertThat(back.expiresAt()).isNull();
            assertThat(back).isEqualTo(next);
        }

        @Test
        void aRowWithoutSummaryOrDeadlineIsStoredAsSuch() {
            RunSnapshot old = insert(Snapshots.suspended(agent, id("legacy"), "t", "u", 0));
            assertThat(store.find(id("legacy"))).contains(old);
            assertThat(old.summary()).isNull();
        }
    }

    @Nested
    class PayloadFreeListings {

        @Test
        void aListingWithoutPayloadsReturnsEveryOtherFieldAndAnEmptyPayload() {
            RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
            RunSnapshot listed = store.list(query().withPayload(false).build()).items().get(0);
            assertThat(listed.payload()).isEmpty();
            assertThat(listed.summary()).isEqualTo(s.summary());
            assertThat(listed.version()).isEqualTo(1);
            assertThat(listed.expiresAt()).isEqualTo(s.expiresAt());
            assertThat(listed.createdAt()).isEqualTo(s.createdAt());
        }

        @Test
        void aRowWithoutSummaryIsListedWithItsPayloadSoCoreCanReadIt() {
            RunSnapshot old = insert(Snapshots.suspended(agent, id("legacy"), "t", "u", 0));
            RunSnapshot listed = store.list(query().withPayload(false).build()).items().get(0);
            assertThat(listed.payload()).isEqualTo(old.payload());
        }

        @Test
        void aListingWithPayloadsReturnsThemVerbatim() {
            RunSnapshot s = insert(run("r1", "t", 0, null));
            assertThat(store.list(query().build()).items().get(0).payload()).isEqualTo(s.payload());
        }
    }

    @Nested
    class KeysetPaging {

        @Test
        void aCursorContinuesStrictlyAfterTheLastRunOfThePreviousPageInListingOrder() {
            for (int i = 0; i < 7; i++) insert(run("r" + i, "t", i / 2 * 1000, null));   // ties in pairs
            List<String> all = ids(store.list(query().build()).items());
            List<String> walked = new ArrayList<>();
            RunQuery.After after = null;
            while (true) {
                RunPage page = store.list(query().after(after, 3).build());
                assertThat(page.total()).as("the total ignores the cursor").isEqualTo(7);
                if (page.items().isEmpty()) break;
                walked.addAll(ids(page.items()));
                RunSnapshot last = page.items().get(page.items().size() - 1);
                after = new RunQuery.After(last.createdAt(), last.runId());
            }
            assertThat(walked).isEqualTo(all);
        }

        @Test
        void aCursorCombinesWithFiltersAndDates() {
            for (int i = 0; i < 6; i++) insert(run("r" + i, i % 2 == 0 ? "even" : "odd", i * 1000, null));
            RunPage page = store.list(query().threadId("even").createdTo(T0.plusMillis(4000))
                    .after(new RunQuery.After(T0.plusMillis(4000), id("r4")), 10).build());
            assertThat(ids(page.items())).containsExactly("r2", "r0");
            assertThat(page.total()).isEqualTo(3);
        }

        @Test
        void aCursorAtARunThatIsGoneStillContinuesFromItsPosition() {
            for (int i = 0; i < 4; i++) insert(run("r" + i, "t", i * 1000, null));
            assertThat(store.delete(id("r2"), 1)).isTrue();
            RunPage page = store.list(query().after(new RunQuery.After(T0.plusMillis(2000), id("r2")), 10).build());
            assertThat(ids(page.items())).containsExactly("r1", "r0");
        }

        @Test
        void aCursorAndAnOffsetDoNotGoTogether() {
            assertThatThrownBy(() -> new RunQuery(agent, RunStatus.SUSPENDED, null, null, null, null, T0, 5, 10,
                    new RunQuery.After(T0, "x"), true)).isInstanceOf(IllegalArgumentException.class);
        }

        /**
         * Walks every page with a cursor while another thread inserts and deletes runs: no run that
         * stayed suspended the whole time is skipped or repeated. Seeded, so a failure replays.
         */
        @RepeatedTest(4)
        void pagingWithACursorIsStableUnderConcurrentInsertsAndDeletes(RepetitionInfo repetition) throws Exception {
            Random random = new Random(4242L + repetition.getCurrentRepetition());
            List<String> stable = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String name = "s" + i;
                insert(run(name, "t", random.nextInt(40) * 1000L, null));   // many ties
                stable.add(name);
            }
            Set<String> churn = ConcurrentHashMap.newKeySet();
            AtomicBoolean walking = new AtomicBoolean(true);
            long seed = random.nextLong();
            Thread writer = new Thread(() -> {
                Random r = new Random(seed);
                int n = 0;
                while (walking.get() && n < 400) {
                    String name = "c" + n++;
                    if (store.insert(run(name, "t", r.nextInt(40) * 1000L, null))) churn.add(name);
                    if (!churn.isEmpty() && r.nextBoolean()) {
                        String gone = churn.iterator().next();
                        if (store.delete(id(gone), 1)) churn.remove(gone);
                    }
                }
            });
            writer.start();
            List<String> seen = new ArrayList<>();
            RunQuery.After after = null;
            try {
                for (int pages = 0; pages < 1000; pages++) {
                    RunPage page = store.list(query().after(after, 1 + random.nextInt(7)).withPayload(false).build());
                    if (page.items().isEmpty()) break;
                    seen.addAll(ids(page.items()));
                    RunSnapshot last = page.items().get(page.items().size() - 1);
                    after = new RunQuery.After(last.createdAt(), last.runId());
                }
            } finally {
                walking.set(false);
                writer.join(30_000);
            }
            assertThat(new HashSet<>(seen)).as("no run is repeated").hasSameSizeAs(seen);
            assertThat(seen).as("no run that stayed is skipped").containsAll(stable);
        }

        @Test
        void cursorPagesAgreeWithTheReferenceModelOnSeededRandomData() {
            Random random = new Random(99L);
            List<RunSnapshot> runs = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                runs.add(insert(run("k" + random.nextInt(1000) + "-" + i, random.nextBoolean() ? "a" : "b",
                        random.nextInt(20) * 1000L, null)));
            }
            for (int q = 0; q < 40; q++) {
                String thread = random.nextInt(3) == 0 ? null : random.nextBoolean() ? "a" : "b";
                RunSnapshot pivot = runs.get(random.nextInt(runs.size()));
                RunQuery.After after = new RunQuery.After(pivot.createdAt(), pivot.runId());
                int limit = 1 + random.nextInt(10);
                RunQuery rq = query().threadId(thread).after(after, limit).build();
                List<String> expected = ids(runs.stream().filter(rq::matches).filter(after::precedes).sorted(RunQuery.ORDER)
                        .limit(limit).toList());
                RunPage page = store.list(rq);
                assertThat(ids(page.items())).as("query %d: thread %s after %s", q, thread, after).isEqualTo(expected);
                assertThat(page.total()).isEqualTo(runs.stream().filter(rq::matches).count());
            }
        }
    }

    @Nested
    class DueRuns {

        @Test
        void dueRunsAreThoseWhoseDeadlinePassedSoonestFirstUpToTheLimit() {
            insert(run("late", "t", 0, T0.plusSeconds(300)));
            insert(run("b", "t", 1, T0.plusSeconds(60)));
            insert(run("a", "t", 2, T0.plusSeconds(60)));
            insert(run("first", "t", 3, T0.plusSeconds(30)));
            insert(run("never", "t", 4, null));
            assertThat(ids(store.listDue(agent, T0.plusSeconds(60), 10))).containsExactly("first", "a", "b");
            assertThat(ids(store.listDue(agent, T0.plusSeconds(60), 2))).containsExactly("first", "a");
            assertThat(store.listDue(agent, T0.plusSeconds(29), 10)).isEmpty();
            assertThat(ids(store.listDue(agent, T0.plusSeconds(400), 10))).containsExactly("first", "a", "b", "late");
        }

        @Test
        void aRunUnderALiveLeaseIsNotDueButOneWhoseLeaseLapsedIs() {
            RunSnapshot s = insert(run("held", "t", 0, T0.plusSeconds(10)));
            RunSnapshot claimed = s.claimed("me", T0.plusSeconds(100), s.payload());
            assertThat(store.compareAndSet(1, claimed)).isTrue();
            assertThat(store.listDue(agent, T0.plusSeconds(50), 10)).isEmpty();
            assertThat(ids(store.listDue(agent, T0.plusSeconds(100), 10))).containsExactly("held");
        }

        @Test
        void dueRunsAreScopedToTheAgentAndMatchedLiterally() {
            insert(run("mine", "t", 0, T0));
            String other = agent + "-other";
            Instant c = T0;
            assertThat(store.insert(new RunSnapshot(id("theirs"), other, RunStatus.SUSPENDED, null, null, c, c, 1, null, null,
                    payloadFor(id("theirs")), T0, null))).isTrue();
            assertThat(ids(store.listDue(agent, T0.plusSeconds(1), 10))).containsExactly("mine");
            assertThat(ids(store.listDue(other, T0.plusSeconds(1), 10))).containsExactly("theirs");
            assertThat(store.listDue(agent + "%", T0.plusSeconds(1), 10)).isEmpty();
        }

        @Test
        void aDeadlineIsInclusiveAndMovesWithTheRun() {
            RunSnapshot s = insert(run("r", "t", 0, T0.plusSeconds(10)));
            assertThat(ids(store.listDue(agent, T0.plusSeconds(10), 10))).containsExactly("r");
            assertThat(store.compareAndSet(1, s.suspended(T0.plusSeconds(5), s.payload(), T0.plusSeconds(20), s.summary())))
                    .isTrue();
            assertThat(store.listDue(agent, T0.plusSeconds(10), 10)).isEmpty();
            assertThat(ids(store.listDue(agent, T0.plusSeconds(20), 10))).containsExactly("r");
            assertThat(store.delete(id("r"), 2)).isTrue();
            assertThat(store.listDue(agent, T0.plusSeconds(30), 10)).isEmpty();
        }
    }
}
