package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.StoreFaults;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A backend that goes away or stops answering: every call fails with a {@link StorageException}
 * naming the store (and the run), within the store's timeout. Needs the contract's {@code faults()}
 * hook ({@link StoreFaults}); skipped without it.
 */
public abstract class Faults extends SnapshotStoreRules {
    private final Callable<Optional<StoreFaults>> faults;

    /**
     * For the contract's {@code @Nested} class of this name, with its {@code faults()} hook.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     * @param faults         the contract's {@code faults()} hook
     */
    protected Faults(StoreUnderTest storeUnderTest, Callable<Optional<StoreFaults>> faults) {
        super(storeUnderTest);
        this.faults = faults;
    }

    private Optional<StoreFaults> faults() throws Exception {
        return faults.call();
    }

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
