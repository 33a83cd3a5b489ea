package dev.baton.spring;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The store's health for Actuator ({@code /actuator/health}, component {@code batonStore}): a
 * cheap ping, {@code now()} for a store with its own clock ({@link StoreCapability#STORE_CLOCK}),
 * else a {@code find} of a run id that does not exist. The ping runs on a thread of its own, and
 * the indicator waits at most {@code baton.health.timeout}: a store that hangs is DOWN after that
 * time, not a hung health endpoint. At most one ping is in flight; while one still hangs, each
 * check waits for that one again rather than starting another.
 *
 * <p>Thread-safe. It owns its ping thread (a daemon, ended after 30 s idle); {@link #destroy()}
 * (Spring calls it) ends it. It never closes the store.
 */
public final class SnapshotStoreHealthIndicator implements HealthIndicator, DisposableBean {

    private static final String PING_RUN_ID = "baton-health-check-no-such-run";

    private final SnapshotStore store;
    private final Duration timeout;
    private final ExecutorService executor;
    private CompletableFuture<Health> inFlight;

    /**
     * An indicator of one store.
     *
     * @param store   the store to check
     * @param timeout how long a ping may take before the store is reported DOWN
     */
    public SnapshotStoreHealthIndicator(SnapshotStore store, Duration timeout) {
        this.store = Objects.requireNonNull(store, "store");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("baton.health.timeout must be positive");
        this.timeout = timeout;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "baton-store-health");
            t.setDaemon(true);
            return t;
        });
        this.executor = pool;
    }

    @Override
    public Health health() {
        CompletableFuture<Health> ping = ping();
        try {
            return ping.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Health.down().withDetail("store", store.describe())
                    .withDetail("error", "the store did not answer within " + timeout.toMillis() + " ms").build();
        } catch (ExecutionException e) {
            return Health.down(e.getCause() instanceof Exception ex ? ex : e).withDetail("store", store.describe()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.unknown().withDetail("store", store.describe()).build();
        }
    }

    private synchronized CompletableFuture<Health> ping() {
        if (inFlight == null || inFlight.isDone()) {
            inFlight = CompletableFuture.supplyAsync(this::check, executor);
        }
        return inFlight;
    }

    private Health check() {
        long start = System.nanoTime();
        Health.Builder health = Health.up().withDetail("store", store.describe())
                .withDetail("capabilities", store.capabilities());
        if (store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
            Instant now = store.now();
            health.withDetail("storeTime", now.toString());
        } else {
            store.find(PING_RUN_ID);
        }
        return health.withDetail("latencyMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).build();
    }

    /** Stops the ping thread. */
    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
