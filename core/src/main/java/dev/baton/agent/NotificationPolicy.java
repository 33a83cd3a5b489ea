package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.store.RunSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which moments of a run's wait an agent notifies about: set with {@code notifications(...)} on the
 * agent's builder; the store keeps each due notification in the run's own row, in the same write as
 * the wait ({@link RunSnapshot#notifyAt()}), so none is lost if the process dies right after it.
 *
 * <pre>{@code
 * NotificationPolicy policy = NotificationPolicy.of(NotificationEvent.SUSPENDED, NotificationEvent.INTERRUPTED)
 *     .beforeExpiry(Duration.ofHours(4));   // and 4 hours before a wait expires
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class NotificationPolicy {
    private static final NotificationPolicy NONE = new NotificationPolicy(EnumSet.noneOf(NotificationEvent.class), Duration.ZERO);

    private final Set<NotificationEvent> events;
    private final Duration expiryLead;

    private NotificationPolicy(Set<NotificationEvent> events, Duration expiryLead) {
        this.events = Collections.unmodifiableSet(EnumSet.copyOf(events.isEmpty() ? EnumSet.noneOf(NotificationEvent.class) : events));
        this.expiryLead = expiryLead;
    }

    /**
     * No notifications: the default of every agent.
     *
     * @return the policy
     */
    public static NotificationPolicy none() {
        return NONE;
    }

    /**
     * Notifies on {@code events}; {@link NotificationEvent#EXPIRING} at the deadline itself unless
     * {@link #beforeExpiry} sets a lead time.
     *
     * @param events the events, at least one
     * @return the policy
     * @throws InvalidOptionException naming {@code events} if there are none or one is null
     */
    public static NotificationPolicy of(NotificationEvent... events) {
        if (events == null || events.length == 0) throw new InvalidOptionException("events", "name at least one NotificationEvent");
        EnumSet<NotificationEvent> set = EnumSet.noneOf(NotificationEvent.class);
        for (NotificationEvent e : events) {
            if (e == null) throw new InvalidOptionException("events", "must not contain null");
            set.add(e);
        }
        return new NotificationPolicy(set, Duration.ZERO);
    }

    /**
     * This policy, also notifying {@code lead} before a run's wait expires ({@link NotificationEvent#EXPIRING}).
     *
     * @param lead how long before the deadline, zero or positive
     * @return a new policy
     * @throws InvalidOptionException naming {@code lead} if it is negative
     */
    public NotificationPolicy beforeExpiry(Duration lead) {
        Objects.requireNonNull(lead, "lead");
        if (lead.isNegative()) throw new InvalidOptionException("lead", "must not be negative, was " + lead);
        EnumSet<NotificationEvent> set = events.isEmpty() ? EnumSet.noneOf(NotificationEvent.class) : EnumSet.copyOf(events);
        set.add(NotificationEvent.EXPIRING);
        return new NotificationPolicy(set, lead);
    }

    /** {@return the events notified about; empty for {@link #none()}} */
    public Set<NotificationEvent> events() {
        return events;
    }

    /** {@return how long before a wait expires {@link NotificationEvent#EXPIRING} is due} */
    public Duration expiryLead() {
        return expiryLead;
    }

    /** {@return true if any event is notified about} */
    public boolean enabled() {
        return !events.isEmpty();
    }

    /**
     * When the {@link NotificationEvent#EXPIRING} notification of {@code run} is due: its deadline
     * minus the lead time, if this policy notifies about expiry and the run has a deadline.
     *
     * @param run the stored run
     * @return the instant (perhaps already past), or null
     */
    public @Nullable Instant expiringAt(RunSnapshot run) {
        Instant deadline = run.expiresAt();
        if (deadline == null || !events.contains(NotificationEvent.EXPIRING)) return null;
        // the stored deadline may be a call's escalation (due on the same index): expiry is the calls' own
        dev.baton.internal.RunSummary summary = dev.baton.internal.RunSummary.decode(run.summary());
        if (summary != null) deadline = summary.expiry();
        return deadline == null ? null : deadline.minus(expiryLead);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NotificationPolicy p && events.equals(p.events) && expiryLead.equals(p.expiryLead);
    }

    @Override
    public int hashCode() {
        return Objects.hash(events, expiryLead);
    }

    @Override
    public String toString() {
        return "NotificationPolicy" + events + (events.contains(NotificationEvent.EXPIRING) ? " lead " + expiryLead : "");
    }
}
