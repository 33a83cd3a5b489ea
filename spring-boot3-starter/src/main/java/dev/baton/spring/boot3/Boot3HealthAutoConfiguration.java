package dev.baton.spring.boot3;

import dev.baton.spring.BatonAutoConfiguration;
import dev.baton.spring.BatonProperties;
import dev.baton.store.SnapshotStore;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The store's Actuator health indicator on Spring Boot 3.5 ({@link SnapshotStoreHealthIndicator},
 * component {@code batonStore}), when Actuator is present; off with
 * {@code management.health.baton.enabled=false}. Guarded by Spring Boot 3's health classes, so it
 * stays out of a Spring Boot 4 application.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class,
        beforeName = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.boot.actuate.health.HealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator"})
@ConditionalOnBean(SnapshotStore.class)
@ConditionalOnEnabledHealthIndicator("baton")
public class Boot3HealthAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public Boot3HealthAutoConfiguration() {
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
