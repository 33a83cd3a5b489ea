package dev.baton.notify;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one delivery attempt to one {@link NotificationChannel} came to: delivered, failed in a way
 * a later attempt may fix (the receiver is down, slow, overloaded), or failed for good (the
 * receiver refuses it: a wrong URL, a rejected signature). Immutable.
 *
 * @param outcome    which of the three
 * @param detail     for logs and dead letters: {@code "HTTP 503"}, {@code "HTTP 400: invalid_blocks"} (the
 *                   start of the receiver's answer), {@code "timed out after 5 s"}; empty when delivered
 * @param retryAfter for a retryable failure, how long the receiver asked to be left alone ({@code Retry-After}
 *                   of a 429 or 503), or null: the notifier waits at least that long (at most its backoff's
 *                   maximum) before the next attempt
 */
public record DeliveryResult(Outcome outcome, String detail, @Nullable Duration retryAfter) {
    private static final DeliveryResult DELIVERED = new DeliveryResult(Outcome.DELIVERED, "", null);

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
     * @param outcome    which of the three
     * @param detail     what happened, not null
     * @param retryAfter how long the receiver asked to wait, or null; only for a retryable failure
     * @throws IllegalArgumentException a {@code retryAfter} that is negative, or given for another outcome
     */
    public DeliveryResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
        if (retryAfter != null && (retryAfter.isNegative() || outcome != Outcome.RETRYABLE)) {
            throw new IllegalArgumentException("retryAfter is for a retryable failure and not negative, was " + retryAfter
                    + " for " + outcome);
        }
    }

    /**
     * A result without {@code retryAfter}.
     *
     * @param outcome which of the three
     * @param detail  what happened, not null
     */
    public DeliveryResult(Outcome outcome, String detail) {
        this(outcome, detail, null);
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
        return new DeliveryResult(Outcome.RETRYABLE, detail, null);
    }

    /**
     * A failure a later attempt may fix, no sooner than the receiver asked ({@code Retry-After}).
     *
     * @param detail     what happened
     * @param retryAfter how long the receiver asked to be left alone, or null
     * @return the result
     */
    public static DeliveryResult retryable(String detail, @Nullable Duration retryAfter) {
        return new DeliveryResult(Outcome.RETRYABLE, detail, retryAfter);
    }

    /**
     * A failure for good.
     *
     * @param detail what happened
     * @return the result
     */
    public static DeliveryResult permanent(String detail) {
        return new DeliveryResult(Outcome.PERMANENT, detail, null);
    }

    /** {@return true if delivered} */
    public boolean isDelivered() {
        return outcome == Outcome.DELIVERED;
    }
}
