package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;

/**
 * The notification a write of core leaves due: the outbox obligation stored in the same write as the
 * wait it announces ({@link RunSnapshot#notifyAt()}). A write that starts a wait sets it by the agent's
 * {@link NotificationPolicy}; a write that takes over or ends a wait clears it (a claim, a delete).
 */
final class RunNotifications {
    private RunNotifications() {
    }

    /** {@code policy}, if {@code store} can keep its notifications; fails when the agent is built, never later. */
    static NotificationPolicy check(NotificationPolicy policy, SnapshotStore store) {
        if (policy.enabled() && !store.capabilities().contains(StoreCapability.NOTIFICATIONS)) {
            throw new InvalidOptionException("notifications", store.describe() + " does not declare capability NOTIFICATIONS:"
                    + " it cannot keep due notifications; use a store that does (memory, JDBC, MongoDB, Redis)");
        }
        return policy;
    }

    /**
     * {@code waiting} with its first due notification: the wait's own event at once (its
     * {@code suspendedAt}) if the policy names it, else the expiry notice if the policy has one and
     * the run has a deadline, else none.
     *
     * @param waiting     a snapshot about to be written as suspended
     * @param policy      the agent's policy
     * @param interrupted true if the run is kept as interrupted, false if it suspended
     * @return the snapshot to write
     */
    static RunSnapshot stamp(RunSnapshot waiting, NotificationPolicy policy, boolean interrupted) {
        NotificationEvent event = interrupted ? NotificationEvent.INTERRUPTED : NotificationEvent.SUSPENDED;
        if (policy.events().contains(event)) {
            return waiting.toBuilder().notification(waiting.suspendedAt(), NotificationState.of(event).encode()).build();
        }
        Instant expiring = policy.expiringAt(waiting);
        if (expiring != null) {
            return waiting.toBuilder().notification(expiring, NotificationState.of(NotificationEvent.EXPIRING).encode()).build();
        }
        return waiting.notifyAt() == null && waiting.notifyState() == null ? waiting : waiting.toBuilder().notification(null, null).build();
    }

    /**
     * True if {@code stored}, read back after a write whose outcome was unknown, is that write: equal but
     * for the notification fields, which a notifier may have moved since.
     */
    static boolean sameWrite(RunSnapshot stored, RunSnapshot written) {
        return stored.toBuilder().notification(written.notifyAt(), written.notifyState()).build().equals(written);
    }
}
