package dev.baton.spring;

import dev.baton.store.SnapshotStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The store's Actuator health indicator on Spring Boot 4 ({@link SnapshotStoreHealthIndicator},
 * component {@code batonStore}), when Boot 4's health module is present; off with
 * {@code management.health.baton.enabled=false}. Guarded by a class only Spring Boot 4 has, so it
 * stays out of a Spring Boot 3.5 application (where {@code baton-spring-boot3-starter} gives the
 * indicator).
 */
@AutoConfiguration(after = BatonAutoConfiguration.class,
        beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.boot.health.contributor.HealthIndicator",
        "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator"})
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
