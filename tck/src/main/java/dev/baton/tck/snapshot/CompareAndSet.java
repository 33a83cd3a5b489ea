package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code compareAndSet} replaces a run only at the expected version, atomically: one winner among
 * racing claims, no lost update, never a run created, and a delete and a claim at one version never
 * both win.
 */
public abstract class CompareAndSet extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected CompareAndSet(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
