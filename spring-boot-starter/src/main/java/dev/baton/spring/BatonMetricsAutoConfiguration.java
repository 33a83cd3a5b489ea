package dev.baton.spring;

import dev.baton.agent.Agent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Baton's Micrometer meters and observations, when Micrometer is present and
 * {@code baton.metrics.enabled} is not false: {@link BatonObservationListener} (timers and spans),
 * {@link BatonMeterListener} (counters) and {@link BatonRunGauges} (gauges). The listeners are
 * {@code RunListener} beans, so {@link BatonAgents} gives them to every agent. Spring stops the
 * gauges' thread at shutdown.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class, afterName = {
        // Spring Boot 4
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        // Spring Boot 3.5
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "baton.metrics", name = "enabled", matchIfMissing = true)
public class BatonMetricsAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonMetricsAutoConfiguration() {
    }

    /** Observations into the application's {@link ObservationRegistry} (metrics and traces as it is set up). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(ObservationRegistry.class)
    static class WithObservationRegistry {
        @Bean
        @ConditionalOnMissingBean
        BatonObservationListener batonObservationListener(ObservationRegistry registry) {
            return new BatonObservationListener(registry);
        }
    }

    /** Meters; and without an ObservationRegistry bean, observations that only make timers. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class WithMeterRegistry {
        @Bean
        @ConditionalOnMissingBean
        BatonMeterListener batonMeterListener(MeterRegistry registry) {
            return new BatonMeterListener(registry);
        }

        @Bean
        @ConditionalOnMissingBean
        BatonRunGauges batonRunGauges(MeterRegistry registry, ObjectProvider<Agent> agents, BatonProperties properties) {
            return new BatonRunGauges(registry, agents, properties.getMetrics().getSuspendedRunsRefresh());
        }

        @Bean
        @ConditionalOnMissingBean({BatonObservationListener.class, ObservationRegistry.class})
        BatonObservationListener batonTimersOnlyObservationListener(MeterRegistry registry) {
            ObservationRegistry timersOnly = ObservationRegistry.create();
            timersOnly.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
            return new BatonObservationListener(timersOnly);
        }
    }
}
