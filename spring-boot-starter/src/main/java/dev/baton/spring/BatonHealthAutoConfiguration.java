package dev.baton.spring;

import dev.baton.store.SnapshotStore;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The store's Actuator health indicator ({@link SnapshotStoreHealthIndicator}, component
 * {@code batonStore}), when Actuator is present; off with {@code management.health.baton.enabled=false}.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class,
        beforeName = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(SnapshotStore.class)
@ConditionalOnEnabledHealthIndicator("baton")
public class BatonHealthAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonHealthAutoConfiguration() {
    }

    /**
     * Pings the store with a timeout.
     *
     * @param store      the store bean
     * @param properties {@code baton.health.timeout}
     * @return the indicator (Spring destroys it at shutdown, which stops its thread)
     */
    @Bean
    @ConditionalOnMissingBean(name = "batonStoreHealthIndicator")
    public SnapshotStoreHealthIndicator batonStoreHealthIndicator(SnapshotStore store, BatonProperties properties) {
        return new SnapshotStoreHealthIndicator(store, properties.getHealth().getTimeout());
    }
}
