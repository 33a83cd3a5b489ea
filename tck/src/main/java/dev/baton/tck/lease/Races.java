package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
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
import org.junit.jupiter.api.Test;

/**
 * A renewal is a write like a compare-and-set: it moves the version on, so that a claim decided on
 * an earlier read fails; of racing renewals, and of a renewal racing a delete, one wins; renewals
 * racing compare-and-sets apply exactly the successful writes.
 */
public abstract class Races extends LeaseRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Races(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
