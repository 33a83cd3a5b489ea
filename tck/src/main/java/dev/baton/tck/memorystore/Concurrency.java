package dev.baton.tck.memorystore;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The thread-safety duty of {@code MemoryStore}: one store instance serves every thread of a
 * process (and, for a {@code SHARED} store, other processes), so runs appending to one thread at
 * the same time lose nothing and interleave whole, and two creates of one thread at the same time
 * create it once.
 */
public abstract class Concurrency extends MemoryStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Concurrency(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** The thread-safety duty of MemoryStore: concurrent appends to one thread lose nothing and interleave whole. */
    @Test
    void twoRunsAppendingToOneThreadAtTheSameTimeLoseNothingAndInterleaveWhole() throws Exception {
        MemoryThread t = create(uniqueId("th"), 0);
        int writers = 4;
        int batches = 25;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String run = "w" + w;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int b = 0; b < batches; b++) {
                        memory.append(t.id(), List.of(msg(run, 2 * b, "a"), msg(run, 2 * b + 1, "b")), Instant.now());
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        List<StoredMessage> all = memory.listMessages(t.id(), 0, 1000).messages();
        assertThat(all).hasSize(writers * batches * 2);
        for (int i = 0; i < all.size(); i += 2) {
            // each append's two messages are next to each other, in order
            assertThat(all.get(i).runId()).isEqualTo(all.get(i + 1).runId());
            assertThat(all.get(i + 1).runIndex()).isEqualTo(all.get(i).runIndex() + 1);
        }
        for (int i = 1; i < all.size(); i++) assertThat(all.get(i).seq()).isGreaterThan(all.get(i - 1).seq());
    }

    /**
     * The thread-safety duty of MemoryStore: creates of one thread at the same time create it once.
     * Exactly one {@code createThread} returns {@code true}, and the stored thread is that one's.
     */
    @Test
    void twoCreatesOfOneThreadAtTheSameTimeCreateItOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = uniqueId("th");
            int creators = 8;
            ExecutorService pool = Executors.newFixedThreadPool(creators);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<Boolean>> done = new ArrayList<>();
                for (int c = 0; c < creators; c++) {
                    MemoryThread mine = thread(id, 0).toBuilder().title("creator " + c).build();
                    done.add(pool.submit(() -> {
                        start.await();
                        return memory.createThread(mine);
                    }));
                }
                start.countDown();
                List<String> winners = new ArrayList<>();
                for (int c = 0; c < creators; c++) {
                    if (done.get(c).get(60, TimeUnit.SECONDS)) winners.add("creator " + c);
                }
                assertThat(winners).as("round %d: creates that returned true", round).hasSize(1);
                assertThat(memory.findThread(id).orElseThrow().title()).isEqualTo(winners.get(0));
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(memory.listThreads(resource, 0, 10).total()).isEqualTo(5);
    }
}
