package dev.baton.agent;

/**
 * Why a notification about a run is sent: the moments a run starts waiting for someone. Chosen per
 * agent with {@link NotificationPolicy}; recorded in each due notification's {@link NotificationState}.
 */
public enum NotificationEvent {
    /** The run suspended: calls wait for an approval or for data. Due in the same write as the suspension. */
    SUSPENDED,
    /** The run stopped part-way and was kept as interrupted (it waits for {@code continueRun}). Due in that write. */
    INTERRUPTED,
    /** The run's wait is about to expire: due at its deadline minus the policy's lead time. */
    EXPIRING
}
