package dev.baton.notify;

import java.time.Duration;

/** Where the notifier reports what it did: nowhere, or Micrometer ({@link MicrometerNotifierMetrics}). */
interface NotifierMetrics {
    NotifierMetrics NONE = new NotifierMetrics() {
    };

    /** One channel's attempt, with its outcome and how long the call took. */
    default void attempt(String channel, DeliveryResult.Outcome outcome, Duration took) {
    }

    /** A notification delivered to every channel, {@code latency} after it became due. */
    default void sent(String agentId, Duration latency) {
    }

    /** A notification that failed and was rescheduled. */
    default void retried(String agentId) {
    }

    /** A notification given up. */
    default void dead(String agentId) {
    }
}
