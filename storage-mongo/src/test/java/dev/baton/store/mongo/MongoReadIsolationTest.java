package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Reads never see half an update: while one thread flips a run between suspended and claimed,
 * readers only ever get whole snapshots (a torn one fails RunSnapshot's own validation).
 * mongo-java-server needs the store's projection for this; real MongoDB guarantees it anyway.
 */
class MongoReadIsolationTest {

    @Test
    void readersSeeOnlyWholeSnapshotsWhileAWriterFlipsTheRun() throws Exception {
        try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url())) {
            String agent = uniqueId("iso");
            RunSnapshot first = suspended(agent, uniqueId("run"), "t", "r", 0);
            store.insert(first);
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(5);
            try {
                Future<Integer> writer = pool.submit(() -> {
                    start.await();
                    RunSnapshot cur = first;
                    int writes = 0;
                    for (; writes < 400; writes++) {
                        RunSnapshot next = cur.status() == RunStatus.SUSPENDED
                                ? cur.claimed("owner-" + writes, T0.plusSeconds(10_000), "{\"w\":" + writes + "}")
                                : cur.suspended(T0.plusSeconds(writes), "{\"w\":" + writes + "}");
                        assertThat(store.compareAndSet(cur.version(), next)).isTrue();
                        cur = next;
                    }
                    done.set(true);
                    return writes;
                });
                List<Future<Integer>> readers = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    boolean lists = i % 2 == 0;
                    readers.add(pool.submit(() -> {
                        start.await();
                        int reads = 0;
                        while (!done.get()) {
                            if (lists) {
                                store.list(RunQuery.forAgent(agent, T0).status(null).build());
                            } else {
                                assertThat(store.find(first.runId())).isPresent();
                            }
                            reads++;
                        }
                        return reads;
                    }));
                }
                start.countDown();
                assertThat(writer.get(60, TimeUnit.SECONDS)).isEqualTo(400);
                for (Future<Integer> r : readers) assertThat(r.get(60, TimeUnit.SECONDS)).isPositive();
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
