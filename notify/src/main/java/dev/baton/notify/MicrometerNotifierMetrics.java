package dev.baton.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/**
 * The notifier's meters (loaded only when a registry is given, so Micrometer stays optional):
 * {@code baton.notifications.sent}, {@code .retried}, {@code .dead} (counters, tag {@code agent}),
 * {@code baton.notifications.latency} (timer, tag {@code agent}: from when the wait began, or the
 * expiry notice fell due, to delivery), {@code baton.notifications.attempts} (timer, tags
 * {@code channel} and {@code outcome}: each channel call).
 */
final class MicrometerNotifierMetrics implements NotifierMetrics {
    private final MeterRegistry registry;

    MicrometerNotifierMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void attempt(String channel, DeliveryResult.Outcome outcome, Duration took) {
        Timer.builder("baton.notifications.attempts").description("Calls of a notification channel")
                .tag("channel", channel).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(registry).record(took);
    }

    @Override
    public void sent(String agentId, Duration latency) {
        Counter.builder("baton.notifications.sent").description("Notifications delivered to every channel")
                .tag("agent", agentId).register(registry).increment();
        Timer.builder("baton.notifications.latency").description("From when a notification fell due to its delivery")
                .tag("agent", agentId).register(registry).record(latency);
    }

    @Override
    public void retried(String agentId) {
        Counter.builder("baton.notifications.retried").description("Notifications that failed and were rescheduled")
                .tag("agent", agentId).register(registry).increment();
    }

    @Override
    public void dead(String agentId) {
        Counter.builder("baton.notifications.dead").description("Notifications given up (dead letters)")
                .tag("agent", agentId).register(registry).increment();
    }
}
