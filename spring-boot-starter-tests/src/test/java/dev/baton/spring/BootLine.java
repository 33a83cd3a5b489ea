package dev.baton.spring;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.util.ClassUtils;

/**
 * What differs between the Spring Boot lines the shared suite runs on (4.0, 4.1, 3.5), in one place:
 * the class names Boot moved, and a line-neutral look at Actuator's {@code Health}. Everything else
 * in the suite is the same code on every line.
 */
final class BootLine {
    private BootLine() {
    }

    /** Spring Boot 4 (its health module moved Actuator's health classes). */
    static final boolean BOOT4 = ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator", null);

    /** {@return the running Spring Boot's version, e.g. 4.0.7} */
    static String version() {
        return SpringBootVersion.getVersion();
    }

    /** {@return every Baton auto-configuration on the class path (the starter's, and on 3.5 the Boot 3 starter's), in the imports files' order} */
    static AutoConfigurations baton() {
        List<Class<?>> all = ImportCandidates.load(AutoConfiguration.class, BootLine.class.getClassLoader()).getCandidates().stream()
                .filter(name -> name.startsWith("dev.baton."))
                .<Class<?>>map(BootLine::load)
                .toList();
        return AutoConfigurations.of(all.toArray(Class<?>[]::new));
    }

    /** {@return Spring Boot's observation and metrics auto-configurations on this line} */
    static AutoConfigurations observationAndMetrics() {
        return AutoConfigurations.of(BOOT4
                ? new Class<?>[] {load("org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"),
                        load("org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration")}
                : new Class<?>[] {load("org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"),
                        load("org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration")});
    }

    /** The name of the store's health indicator class on this line. */
    static String healthIndicatorClass() {
        return BOOT4 ? "dev.baton.spring.SnapshotStoreHealthIndicator" : "dev.baton.spring.boot3.SnapshotStoreHealthIndicator";
    }

    /**
     * A {@code Health} as the tests read it, whichever package the line keeps it in.
     *
     * @param status  UP, DOWN, ...
     * @param details the health's details
     */
    record HealthView(String status, Map<String, Object> details) {
    }

    /** Calls {@code health()} on a line's {@code HealthIndicator} and reads the answer. */
    @SuppressWarnings("unchecked")
    static HealthView health(Object indicator) {
        try {
            Method health = indicator.getClass().getMethod("health");
            Object h = health.invoke(indicator);
            Object status = h.getClass().getMethod("getStatus").invoke(h);
            Map<String, Object> details = (Map<String, Object>) h.getClass().getMethod("getDetails").invoke(h);
            return new HealthView(status.getClass().getMethod("getCode").invoke(status).toString(), details);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("not a HealthIndicator of " + Arrays.toString(indicator.getClass().getInterfaces()), e);
        }
    }

    static Class<?> load(String name) {
        return ClassUtils.resolveClassName(name, BootLine.class.getClassLoader());
    }
}
