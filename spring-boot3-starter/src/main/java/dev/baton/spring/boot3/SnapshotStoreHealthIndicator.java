package dev.baton.spring.boot3;

import dev.baton.spring.StoreHealthProbe;
import dev.baton.store.SnapshotStore;
import java.time.Duration;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The store's health for Actuator on Spring Boot 3.5 ({@code /actuator/health}, component
 * {@code batonStore}): {@link StoreHealthProbe}'s ping under {@code baton.health.timeout}, the
 * same check as {@code dev.baton.spring.SnapshotStoreHealthIndicator} on Spring Boot 4.
 *
 * <p>Thread-safe. It owns its probe's ping thread; {@link #destroy()} (Spring calls it) ends it. It
 * never closes the store.
 */
public final class SnapshotStoreHealthIndicator implements HealthIndicator, DisposableBean {

    private final StoreHealthProbe probe;

    /**
     * An indicator of one store.
     *
     * @param store   the store to check
     * @param timeout how long a ping may take before the store is reported DOWN
     */
    public SnapshotStoreHealthIndicator(SnapshotStore store, Duration timeout) {
        this.probe = new StoreHealthProbe(store, timeout);
    }

    @Override
    public Health health() {
        StoreHealthProbe.Result r = probe.check();
        Health.Builder b = r.up() ? Health.up() : r.error() instanceof Exception e ? Health.down(e) : Health.down();
        if (!r.up() && r.error() != null && !(r.error() instanceof Exception)) b.withDetail("error", r.error().toString());
        return b.withDetails(r.details()).build();
    }

    /** Stops the ping thread. */
    @Override
    public void destroy() {
        probe.close();
    }
}
