package dev.baton.spring;

import dev.baton.store.SnapshotStore;
import java.time.Duration;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The store's health for Actuator on Spring Boot 4 ({@code /actuator/health}, component
 * {@code batonStore}): {@link StoreHealthProbe}'s ping under {@code baton.health.timeout}. On Spring
 * Boot 3.5, {@code baton-spring-boot3-starter} has its own indicator on the same probe.
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
        Health.Builder b = r.up() ? Health.up() : r.error() != null ? Health.down(r.error()) : Health.down();
        return b.withDetails(r.details()).build();
    }

    /** Stops the ping thread. */
    @Override
    public void destroy() {
        probe.close();
    }
}
