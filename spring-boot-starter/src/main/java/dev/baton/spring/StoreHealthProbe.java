package dev.baton.spring;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The store's health check, the same on every Spring Boot line (each line's {@code HealthIndicator}
 * turns its {@link Result} into Actuator's {@code Health}): a cheap ping, {@code now()} for a store
 * with its own clock ({@link StoreCapability#STORE_CLOCK}), else a {@code find} of a run id that
 * does not exist. The ping runs on a thread of its own and {@link #check()} waits at most the
 * timeout: a store that hangs is DOWN after that time, not a hung health endpoint. At most one ping
 * is in flight; while one still hangs, each check waits for that one again rather than starting
 * another.
 *
 * <p>Thread-safe. It owns its ping thread (a daemon, ended after 30 s idle); {@link #close()} ends
 * it. It never closes the store.
 */
public final class StoreHealthProbe implements AutoCloseable {

    private static final String PING_RUN_ID = "baton-health-check-no-such-run";

    /**
     * What one check found.
     *
     * @param up      whether the store answered in time
     * @param details the store's description, capabilities, {@code storeTime} and {@code latencyMillis}
     *                when up; the store's description and {@code error} when it did not answer in time
     * @param error   the store's failure, when it failed rather than hung
     */
    public record Result(boolean up, Map<String, Object> details, @Nullable Throwable error) {
        /**
         * A result; the details are copied.
         *
         * @param up      whether the store answered in time
         * @param details what the check found
         * @param error   the store's failure, if any
         */
        public Result {
            details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
        }
    }

    private final SnapshotStore store;
    private final Duration timeout;
    private final ExecutorService executor;
    private @Nullable CompletableFuture<Result> inFlight;

    /**
     * A probe of one store.
     *
     * @param store   the store to check
     * @param timeout how long a ping may take before the store is reported DOWN
     */
    public StoreHealthProbe(SnapshotStore store, Duration timeout) {
        this.store = Objects.requireNonNull(store, "store");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("baton.health.timeout must be positive");
        this.timeout = timeout;
        this.executor = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "baton-store-health");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Pings the store, waiting at most the timeout.
     *
     * @return UP with the details, or DOWN with the failure or the timeout
     */
    public Result check() {
        CompletableFuture<Result> ping = ping();
        try {
            return ping.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new Result(false, Map.of("store", store.describe(),
                    "error", "the store did not answer within " + timeout.toMillis() + " ms"), null);
        } catch (ExecutionException e) {
            return new Result(false, Map.of("store", store.describe()), e.getCause() != null ? e.getCause() : e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, Map.of("store", store.describe(), "error", "interrupted"), e);
        }
    }

    private synchronized CompletableFuture<Result> ping() {
        if (inFlight == null || inFlight.isDone()) {
            inFlight = CompletableFuture.supplyAsync(this::ping0, executor);
        }
        return inFlight;
    }

    private Result ping0() {
        long start = System.nanoTime();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", store.describe());
        details.put("capabilities", store.capabilities());
        if (store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
            details.put("storeTime", store.now().toString());
        } else {
            store.find(PING_RUN_ID);
        }
        details.put("latencyMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return new Result(true, details, null);
    }

    /** Stops the ping thread. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
