package dev.baton.tck.memorystore;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.memory.MemoryThread;
import dev.baton.memory.StoredMessage;
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
 * Runs appending to one thread at the same time lose nothing and interleave whole.
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
}
