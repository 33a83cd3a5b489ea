package dev.baton.tck;

import static dev.baton.tck.Snapshots.T0;
import static dev.baton.tck.Snapshots.suspended;
import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The lease half of the storage TCK: {@link SnapshotStore#renewLease} (the payload-free renewal a
 * heartbeat sends) and {@link SnapshotStore#now()} (the store's clock). Extend it like
 * {@link SnapshotStoreContract}:
 *
 * <pre>{@code
 * class PostgresLeaseTest extends LeaseContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open(url); }
 * }
 * }</pre>
 *
 * <p>A renewal is a write like a compare-and-set: it moves the version on, so that a claim decided
 * on an earlier read fails, and it changes nothing else. The store clock tests run only for a
 * store that declares {@link StoreCapability#STORE_CLOCK}; a store without it must refuse
 * {@code now()} with {@link UnsupportedOperationException}.
 *
 * <p>As in {@code SnapshotStoreContract}, each test uses agent ids of its own, so the database
 * need not be emptied between tests.
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class LeaseContract {

    /** The owner the tests claim runs as. */
    protected static final String OWNER = "instance-1";

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    /** The store of the running test. */
    protected SnapshotStore store;
    /** An agent id owned by the running test. */
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
        agent = uniqueId("tck-lease");
        Certification.record(getClass(), store);
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    protected RunSnapshot insert(RunSnapshot s) {
        assertThat(store.insert(s)).as("insert of %s", s.runId()).isTrue();
        return s;
    }

    /** Claims {@code s} for {@link #OWNER} until {@code leaseExpiresAt}, keeping its payload. */
    protected RunSnapshot claim(RunSnapshot s, Instant leaseExpiresAt) {
        RunSnapshot c = s.claimed(OWNER, leaseExpiresAt, s.payload());
        assertThat(store.compareAndSet(s.version(), c)).as("claim of %s", s.runId()).isTrue();
        return c;
    }

    /** A suspended run of this test's agent, claimed by {@link #OWNER} until {@code leaseExpiresAt}. */
    protected RunSnapshot claimedRun(Instant leaseExpiresAt) {
        return claim(insert(suspended(agent, uniqueId("run"), "t", "r", 0)), leaseExpiresAt);
    }

    protected List<String> ids(RunPage page) {
        return page.items().stream().map(RunSnapshot::runId).toList();
    }

    private RunSnapshot stored(RunSnapshot s) {
        return store.find(s.runId()).orElseThrow(() -> new AssertionError("run " + s.runId() + " is gone"));
    }

    @Nested
    class Renewal {

        @Test
        void aRenewalChangesOnlyTheLeaseExpiryAndTheVersion() {
            StringBuilder b = new StringBuilder("{\"text\":\"h\u00e9llo \u4e16\u754c \ud83d\ude80 \\\"q\\\" \\\\ \\u0000\",\"blob\":\"");
            Random r = new Random(17);
            while (b.length() < 2 * 1024 * 1024) b.append((char) ('a' + r.nextInt(26))).append('\u00e9');
            String payload = b.append("\"}").toString();
            Instant created = T0.plusMillis(123);
            RunSnapshot s = insert(new RunSnapshot(uniqueId("run"), agent, RunStatus.SUSPENDED, "thread-1", "user-1",
                    created, created.plusSeconds(7), 1, null, null, payload));
            RunSnapshot claimed = claim(s, T0.plusSeconds(30));
            Instant newExpiry = T0.plusSeconds(90).plusMillis(5);

            assertThat(store.renewLease(s.runId(), 2, OWNER, newExpiry)).isTrue();

            RunSnapshot after = stored(s);
            assertThat(after).isEqualTo(claimed.renewed(newExpiry));
            assertThat(after.leaseExpiresAt()).isEqualTo(newExpiry);
            assertThat(after.version()).isEqualTo(3);
            assertThat(after.payload()).as("the payload, byte for byte").isEqualTo(payload);
            assertThat(after.status()).isEqualTo(RunStatus.RESUMING);
            assertThat(after.leaseOwner()).isEqualTo(OWNER);
            assertThat(after.createdAt()).isEqualTo(created);
            assertThat(after.suspendedAt()).isEqualTo(created.plusSeconds(7));
            assertThat(after.threadId()).isEqualTo("thread-1");
            assertThat(after.resourceId()).isEqualTo("user-1");
        }

        @Test
        void eachRenewalAdvancesTheVersionByOne() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            RunSnapshot expected = c;
            for (int i = 1; i <= 5; i++) {
                Instant expiry = T0.plusSeconds(10L + i * 10L);
                assertThat(store.renewLease(c.runId(), expected.version(), OWNER, expiry)).as("renewal %d", i).isTrue();
                expected = expected.renewed(expiry);
                assertThat(stored(c)).isEqualTo(expected);
            }
            assertThat(expected.version()).isEqualTo(7);
        }

        @Test
        void theNewExpiryIsStoredAsGivenEvenWhenEarlier() {
            RunSnapshot c = claimedRun(T0.plusSeconds(600));
            Instant earlier = T0.plusSeconds(5);
            assertThat(store.renewLease(c.runId(), 2, OWNER, earlier)).isTrue();
            assertThat(stored(c)).isEqualTo(c.renewed(earlier));
        }

        @Test
        void theNewExpiryIsKeptToTheMillisecond() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            Instant precise = T0.plusSeconds(20).plusNanos(456_789_123);
            assertThat(store.renewLease(c.runId(), 2, OWNER, precise)).isTrue();
            assertThat(stored(c).leaseExpiresAt()).isEqualTo(T0.plusSeconds(20).plusMillis(456));
        }

        @Test
        void aRenewedRunIsListedWithEveryFieldAsFindReturnsIt() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(500))).isTrue();
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(100)).status(RunStatus.RESUMING).build());
            assertThat(page.items()).containsExactly(stored(c));
        }
    }

    @Nested
    class Refusals {

        @Test
        void aWrongVersionIsRefusedAndChangesNothing() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            assertThat(store.renewLease(c.runId(), 1, OWNER, T0.plusSeconds(99))).as("an older version").isFalse();
            assertThat(store.renewLease(c.runId(), 3, OWNER, T0.plusSeconds(99))).as("a newer version").isFalse();
            assertThat(stored(c)).isEqualTo(c);
        }

        @Test
        void aSuspendedRunIsNotRenewedAndGetsNoLease() {
            RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
            assertThat(store.renewLease(s.runId(), 1, OWNER, T0.plusSeconds(99))).isFalse();
            RunSnapshot c = claim(s, T0.plusSeconds(10));
            RunSnapshot back = c.suspended(T0.plusSeconds(3), "{\"back\":true}");
            assertThat(store.compareAndSet(2, back)).isTrue();
            assertThat(store.renewLease(s.runId(), 3, OWNER, T0.plusSeconds(99)))
                    .as("the last owner of a run suspended again").isFalse();
            assertThat(stored(s)).isEqualTo(back);
            assertThat(ids(store.list(RunQuery.forAgent(agent, T0).build()))).containsExactly(s.runId());
        }

        @Test
        void anotherOwnerIsRefusedAndChangesNothing() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            for (String other : List.of("instance-2", "Instance-1", "INSTANCE-1", "instance-1 ", " instance-1", "instance-",
                    "instance-10", "", "%", "instance-_")) {
                assertThat(store.renewLease(c.runId(), 2, other, T0.plusSeconds(99))).as("owner '%s'", other).isFalse();
            }
            assertThat(stored(c)).isEqualTo(c);
        }

        @Test
        void aMissingRunIsNotCreated() {
            String ghost = uniqueId("ghost");
            assertThat(store.renewLease(ghost, 1, OWNER, T0.plusSeconds(99))).isFalse();
            assertThat(store.renewLease(ghost, 2, OWNER, T0.plusSeconds(99))).isFalse();
            assertThat(store.find(ghost)).isEmpty();
            assertThat(store.list(RunQuery.forAgent(agent, T0).status(null).build()).total()).isZero();
        }

        @Test
        void aDeletedRunIsNotRenewedNorBroughtBack() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            assertThat(store.delete(c.runId(), 2)).isTrue();
            assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(99))).isFalse();
            assertThat(store.find(c.runId())).isEmpty();
            assertThat(store.list(RunQuery.forAgent(agent, T0).status(null).build()).total()).isZero();
            assertThat(store.list(RunQuery.forAgent(agent, T0).status(RunStatus.RESUMING).threadId("t").build()).total())
                    .isZero();
        }

        @Test
        void aRefusedRenewalLeavesTheListingsAsTheyWere() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            Instant later = T0.plusSeconds(20);   // the lease has lapsed by then
            assertThat(store.renewLease(c.runId(), 2, "instance-2", T0.plusSeconds(99))).isFalse();
            assertThat(store.renewLease(c.runId(), 1, OWNER, T0.plusSeconds(99))).isFalse();
            assertThat(ids(store.list(RunQuery.forAgent(agent, later).threadId("t").build()))).containsExactly(c.runId());
            assertThat(store.list(RunQuery.forAgent(agent, later).status(RunStatus.RESUMING).build()).total()).isZero();
        }
    }

    /** A renewed lease moves the run between the suspended and resuming listings exactly as its expiry says. */
    @Nested
    class Listings {

        private void assertListedAs(RunSnapshot s, Instant now, RunStatus expected) {
            RunStatus other = expected == RunStatus.SUSPENDED ? RunStatus.RESUMING : RunStatus.SUSPENDED;
            for (RunQuery.Builder q : List.of(RunQuery.forAgent(agent, now), RunQuery.forAgent(agent, now).threadId("t"),
                    RunQuery.forAgent(agent, now).resourceId("r"), RunQuery.forAgent(agent, now).threadId("t").resourceId("r"))) {
                RunQuery in = q.status(expected).build();
                assertThat(ids(store.list(in))).as("%s at %s", in, now).containsExactly(s.runId());
                assertThat(store.list(RunQuery.forAgent(agent, now).status(expected).countOnly().build()).total())
                        .as("count of %s at %s", expected, now).isEqualTo(1);
                RunQuery out = q.status(other).build();
                assertThat(store.list(out).total()).as("%s at %s", out, now).isZero();
                assertThat(ids(store.list(q.status(null).build()))).as("every status at %s", now).containsExactly(s.runId());
            }
        }

        @Test
        void aRenewedLeaseKeepsTheRunOutOfTheSuspendedListing() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            Instant between = T0.plusSeconds(15);   // after the first expiry, before the renewed one
            assertListedAs(c, between, RunStatus.SUSPENDED);
            assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(20))).isTrue();
            assertListedAs(c, between, RunStatus.RESUMING);
            assertListedAs(c, T0.plusSeconds(20), RunStatus.SUSPENDED);   // held while now < leaseExpiresAt
            assertListedAs(c, T0.plusSeconds(20).minusMillis(1), RunStatus.RESUMING);
        }

        @Test
        void aLeaseThatAListingSawLapsedIsHeldAgainOnceRenewed() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            Instant now = T0.plusSeconds(60);
            assertListedAs(c, now, RunStatus.SUSPENDED);   // a store may file the run as lapsed here
            assertThat(store.renewLease(c.runId(), 2, OWNER, now.plusSeconds(30))).isTrue();
            assertListedAs(c, now, RunStatus.RESUMING);
            assertListedAs(c, now.plusSeconds(30), RunStatus.SUSPENDED);
            assertListedAs(c, now, RunStatus.RESUMING);    // and back, for a listing with an earlier now
        }

        @Test
        void aLeaseRenewedToAnEarlierExpiryListsTheRunAsSuspendedFromThen() {
            RunSnapshot c = claimedRun(T0.plusSeconds(600));
            Instant now = T0.plusSeconds(60);
            assertListedAs(c, now, RunStatus.RESUMING);
            assertThat(store.renewLease(c.runId(), 2, OWNER, now)).isTrue();
            assertListedAs(c, now, RunStatus.SUSPENDED);
            assertListedAs(c, now.minusMillis(1), RunStatus.RESUMING);
        }

        @Test
        void aRenewedRunKeepsItsPlaceInTheListingOrder() {
            RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
            RunSnapshot b = claim(insert(suspended(agent, uniqueId("run"), "t", "r", 2000)), T0.plusSeconds(10));
            RunSnapshot c = insert(suspended(agent, uniqueId("run"), "t", "r", 3000));
            assertThat(store.renewLease(b.runId(), 2, OWNER, T0.plusSeconds(50))).isTrue();
            RunQuery all = RunQuery.forAgent(agent, T0.plusSeconds(100)).status(null).threadId("t").build();
            assertThat(ids(store.list(all))).containsExactly(c.runId(), b.runId(), a.runId());
            RunQuery page = RunQuery.forAgent(agent, T0.plusSeconds(20)).status(null).page(1, 1).build();
            RunPage p = store.list(page);
            assertThat(p.items()).containsExactly(stored(b));
            assertThat(p.total()).isEqualTo(3);
        }
    }

    @Nested
    class Races {

        @Test
        void aClaimDecidedOnTheVersionBeforeARenewalFailsAfterIt() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            // another instance reads the run, sees the lease lapsed at its clock, and decides to take it over
            RunSnapshot seen = stored(c);
            assertThat(seen.effectiveStatus(T0.plusSeconds(11))).isEqualTo(RunStatus.SUSPENDED);
            // meanwhile the holder's heartbeat renews
            assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(40))).isTrue();
            RunSnapshot takeover = seen.claimed("instance-2", T0.plusSeconds(70), "{\"stolen\":true}");
            assertThat(store.compareAndSet(seen.version(), takeover)).isFalse();
            assertThat(stored(c)).isEqualTo(c.renewed(T0.plusSeconds(40)));
        }

        @Test
        void aRenewalDecidedBeforeAWriteFailsAfterIt() {
            RunSnapshot c = claimedRun(T0.plusSeconds(10));
            RunSnapshot back = c.suspended(T0.plusSeconds(5), "{\"done\":1}");
            assertThat(store.compareAndSet(2, back)).isTrue();
            assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(40))).isFalse();
            assertThat(stored(c)).isEqualTo(back);

            RunSnapshot again = claim(back, T0.plusSeconds(20));
            RunSnapshot progress = again.claimed(OWNER, again.leaseExpiresAt(), "{\"step\":2}");
            assertThat(store.compareAndSet(4, progress)).isTrue();
            assertThat(store.renewLease(c.runId(), 4, OWNER, T0.plusSeconds(40))).as("a renewal of the version before").isFalse();
            assertThat(store.renewLease(c.runId(), 5, OWNER, T0.plusSeconds(40))).isTrue();
            assertThat(stored(c)).isEqualTo(progress.renewed(T0.plusSeconds(40)));
        }

        @Test
        void exactlyOneOfSixteenRacingRenewalsAtOneVersionWins() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                for (int round = 0; round < 10; round++) {
                    RunSnapshot c = claimedRun(T0.plusSeconds(10));
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<Boolean>> results = new ArrayList<>();
                    for (int i = 0; i < 16; i++) {
                        Instant expiry = T0.plusSeconds(100 + i);
                        results.add(pool.submit(() -> {
                            start.await();
                            return store.renewLease(c.runId(), 2, OWNER, expiry);
                        }));
                    }
                    start.countDown();
                    int winner = -1;
                    int wins = 0;
                    for (int i = 0; i < 16; i++) {
                        if (results.get(i).get(30, TimeUnit.SECONDS)) {
                            wins++;
                            winner = i;
                        }
                    }
                    assertThat(wins).as("winners in round %d", round).isEqualTo(1);
                    assertThat(stored(c)).isEqualTo(c.renewed(T0.plusSeconds(100 + winner)));
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void aRenewalAndADeleteAtTheSameVersionCannotBothWin() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 20; round++) {
                    RunSnapshot c = claimedRun(T0.plusSeconds(10));
                    CountDownLatch start = new CountDownLatch(1);
                    Future<Boolean> del = pool.submit(() -> { start.await(); return store.delete(c.runId(), 2); });
                    Future<Boolean> renew = pool.submit(() -> {
                        start.await();
                        return store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(60));
                    });
                    start.countDown();
                    boolean d = del.get(30, TimeUnit.SECONDS);
                    boolean r = renew.get(30, TimeUnit.SECONDS);
                    assertThat(d ^ r).as("exactly one of delete=%s renewal=%s", d, r).isTrue();
                    if (r) {
                        assertThat(stored(c)).isEqualTo(c.renewed(T0.plusSeconds(60)));
                        assertThat(store.delete(c.runId(), 3)).isTrue();
                    } else {
                        assertThat(store.find(c.runId())).isEmpty();
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }

        /**
         * Eight threads read the run and renew its lease, claim it, suspend it again or try to renew
         * a lease they do not hold, at random (seeded). Every successful write must have been
         * decided on the version it replaced: the versions the successes wrote are exactly 2..n,
         * each once, and the stored run is what the last of them wrote.
         */
        @Test
        void racingRenewalsAndCompareAndSetsApplyExactlyTheSuccessfulWrites() throws Exception {
            RunSnapshot s = insert(suspended(agent, uniqueId("race"), "t", "r", 0));
            int threads = 8;
            int attempts = 30;
            Map<Long, RunSnapshot> written = new ConcurrentHashMap<>();
            List<String> problems = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger successes = new AtomicInteger();
            AtomicInteger renewals = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int me = t;
                    done.add(pool.submit(() -> {
                        Random random = new Random(20261203L + me);
                        start.await();
                        for (int k = 0; k < attempts; k++) {
                            RunSnapshot cur = store.find(s.runId()).orElseThrow();
                            Instant expiry = T0.plusSeconds(1000 + random.nextInt(100_000));
                            int op = random.nextInt(6);
                            RunSnapshot next;
                            boolean ok;
                            if (cur.status() == RunStatus.RESUMING && op < 3) {
                                next = cur.renewed(expiry);
                                ok = store.renewLease(cur.runId(), cur.version(), cur.leaseOwner(), expiry);
                                if (ok) renewals.incrementAndGet();
                            } else if (cur.status() == RunStatus.RESUMING && op == 3) {
                                if (store.renewLease(cur.runId(), cur.version(), "intruder-" + me, expiry)) {
                                    problems.add("thread " + me + " renewed a lease held by " + cur.leaseOwner());
                                }
                                continue;
                            } else if (cur.status() == RunStatus.SUSPENDED || op == 4) {
                                next = cur.claimed("owner-" + me, expiry, "{\"claimedBy\":" + me + ",\"k\":" + k + "}");
                                ok = store.compareAndSet(cur.version(), next);
                            } else {
                                next = cur.suspended(T0.plusSeconds(k), "{\"suspendedBy\":" + me + ",\"k\":" + k + "}");
                                ok = store.compareAndSet(cur.version(), next);
                            }
                            if (ok) {
                                successes.incrementAndGet();
                                if (written.putIfAbsent(next.version(), next) != null) {
                                    problems.add("two writes succeeded on version " + cur.version());
                                }
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertThat(problems).isEmpty();
            RunSnapshot last = stored(s);
            assertThat(successes.get()).as("successful writes").isPositive();
            assertThat(renewals.get()).as("successful renewals").isPositive();
            assertThat(last.version()).as("version after %d successful writes", successes.get()).isEqualTo(1 + successes.get());
            Set<Long> expectedVersions = new TreeSet<>();
            LongStream.rangeClosed(2, last.version()).forEach(expectedVersions::add);
            assertThat(new TreeSet<>(written.keySet())).isEqualTo(expectedVersions);
            assertThat(last).isEqualTo(written.get(last.version()));
        }
    }

    /**
     * {@link SnapshotStore#now()}: refused by a store without {@link StoreCapability#STORE_CLOCK} (a duty
     * of every store); the clock's readings, for a store that declares it (they prove the capability).
     */
    @Nested
    class StoreTime {

        private void assumeStoreClock() {
            assumeTrue(store.capabilities().contains(StoreCapability.STORE_CLOCK),
                    store.describe() + " does not declare STORE_CLOCK");
        }

        @Test
        void nowAnswersExactlyWhenTheStoreDeclaresTheStoreClock() {
            if (store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
                assertThat(store.now()).isNotNull();
            } else {
                assertThatThrownBy(store::now).as("now() of %s, which does not declare STORE_CLOCK", store.describe())
                        .isInstanceOf(UnsupportedOperationException.class);
            }
        }

        @Test
        @ProvesCapability(StoreCapability.STORE_CLOCK)
        void theStoreClockIsWithinSecondsOfThisMachinesClock() {
            assumeStoreClock();
            for (int i = 0; i < 5; i++) {
                Instant before = Instant.now();
                Instant now = store.now();
                Instant after = Instant.now();
                assertThat(now).as("store clock of %s, read between %s and %s", store.describe(), before, after)
                        .isBetween(before.minusSeconds(5), after.plusSeconds(5));
            }
        }

        @Test
        @ProvesCapability(StoreCapability.STORE_CLOCK)
        void theStoreClockNeverGoesBackwards() {
            assumeStoreClock();
            Instant previous = store.now();
            for (int i = 0; i < 300; i++) {
                Instant now = store.now();
                assertThat(now).as("reading %d of the store clock", i).isAfterOrEqualTo(previous);
                previous = now;
            }
        }

        @Test
        @ProvesCapability(StoreCapability.STORE_CLOCK)
        void theStoreClockCountsMilliseconds() {
            assumeStoreClock();
            long started = System.nanoTime();
            Set<Long> millisOfSecond = new TreeSet<>();
            Instant first = store.now();
            Instant last = first;
            int reads = 0;
            while (reads < 300 || System.nanoTime() - started < Duration.ofMillis(60).toNanos()) {
                last = store.now();
                millisOfSecond.add(last.toEpochMilli() % 1000);
                reads++;
            }
            assertThat(millisOfSecond).as("milliseconds of %d readings from %s to %s", reads, first, last)
                    .anyMatch(m -> m != 0);
            assertThat(Duration.between(first, last)).as("time the store clock moved over %d readings", reads)
                    .isPositive();
        }
    }
}
