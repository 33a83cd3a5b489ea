package dev.baton.notify;

import java.util.Objects;

/**
 * What one delivery attempt to one {@link NotificationChannel} came to: delivered, failed in a way
 * a later attempt may fix (the receiver is down, slow, overloaded), or failed for good (the
 * receiver refuses it: a wrong URL, a rejected signature). Immutable.
 *
 * @param outcome which of the three
 * @param detail  for logs and dead letters: {@code "HTTP 503"}, {@code "timed out after 5 s"}; empty when delivered
 */
public record DeliveryResult(Outcome outcome, String detail) {
    private static final DeliveryResult DELIVERED = new DeliveryResult(Outcome.DELIVERED, "");

    /** The three outcomes of an attempt. */
    public enum Outcome {
        /** The receiver took it. */
        DELIVERED,
        /** It failed; the notifier tries again later, with backoff, up to its limit. */
        RETRYABLE,
        /** It failed for good: the notifier gives it up at once (a dead letter). */
        PERMANENT
    }

    /**
     * Checks the fields.
     *
     * @param outcome which of the three
     * @param detail  what happened, not null
     */
    public DeliveryResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }

    /** {@return the receiver took it} */
    public static DeliveryResult delivered() {
        return DELIVERED;
    }

    /**
     * A failure a later attempt may fix.
     *
     * @param detail what happened
     * @return the result
     */
    public static DeliveryResult retryable(String detail) {
        return new DeliveryResult(Outcome.RETRYABLE, detail);
    }

    /**
     * A failure for good.
     *
     * @param detail what happened
     * @return the result
     */
    public static DeliveryResult permanent(String detail) {
        return new DeliveryResult(Outcome.PERMANENT, detail);
    }

    /** {@return true if delivered} */
    public boolean isDelivered() {
        return outcome == Outcome.DELIVERED;
    }
}
