package dev.baton.agent;

import dev.baton.LeaseLostException;
import dev.baton.StorageException;
import dev.baton.internal.SnapshotCodec.Encoded;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The stored version a {@link RunClaim} holds, and the compare-and-set writes that move it on: each
 * write is conditional on the version this claim last wrote, and a write whose outcome is unknown (a
 * timeout) is read back before the version is trusted again. A write that finds the run changed by
 * someone else calls the claim's {@code lose}, which ends the claim and gives the
 * {@link LeaseLostException} to throw. Used with the claim's lock held (only {@link #current()} is
 * read without it).
 */
final class ClaimedVersion {
    private final SnapshotStore store;
    private final Clock clock;
    private final Duration lease;
    private final String owner;
    private final NotificationPolicy notifications;
    private final Supplier<LeaseLostException> lose;
    private volatile RunSnapshot current;
    /** A write was sent and its outcome is unknown: this is what it would have stored. */
    private @Nullable RunSnapshot uncertain;

    ClaimedVersion(SnapshotStore store, Clock clock, Duration lease, String owner, NotificationPolicy notifications,
                   RunSnapshot claimed, Supplier<LeaseLostException> lose) {
        this.store = store;
        this.clock = clock;
        this.lease = lease;
        this.owner = owner;
        this.notifications = notifications;
        this.current = claimed;
        this.lose = lose;
    }

    /** {@return the version this claim last wrote (or read back)} */
    RunSnapshot current() {
        return current;
    }

    /**
     * Deletes the run at the version held.
     *
     * @return false if the run was changed or taken by someone else
     */
    boolean delete() {
        try {
            return store.delete(current.runId(), current.version());
        } catch (StorageException e) {
            Optional<RunSnapshot> back = readBack(e);
            if (back.isPresent() && back.get().version() == current.version()) throw e;
            return back.isEmpty();
        }
    }

    /** The next version, claimed: the decider labels stay as the last suspended write left them (a claimed run matches none). */
    RunSnapshot resuming(Encoded state) {
        RunSnapshot c = current;
        return c.toBuilder().status(RunStatus.RESUMING).version(c.version() + 1).lease(owner, clock.instant().plus(lease))
                .payload(state.payload()).expiresAt(state.expiresAt()).summary(state.summary()).notification(null, null).build();
    }

    RunSnapshot suspended(Encoded state, boolean interrupted) {
        RunSnapshot c = current;
        return RunNotifications.stamp(c.toBuilder().status(RunStatus.SUSPENDED).suspendedAt(clock.instant()).version(c.version() + 1)
                .lease(null, null).payload(state.payload()).expiresAt(state.expiresAt()).summary(state.summary())
                .deciders(state.deciders()).build(),
                notifications, interrupted);
    }

    void renew(Instant now) {
        RunSnapshot next = current.renewed(now.plus(lease));
        boolean ok;
        try {
            ok = store.renewLease(current.runId(), current.version(), owner, next.leaseExpiresAt());
        } catch (StorageException e) {
            uncertain = next;
            throw e;
        }
        if (!ok) throw lose.get();
        current = next;
    }

    /** The compare-and-set of {@code next} on the version held; the claim checked first that it is usable. */
    void write(RunSnapshot next) {
        resolveUncertain();
        boolean ok;
        try {
            ok = store.compareAndSet(current.version(), next);
        } catch (StorageException e) {
            uncertain = next;
            Optional<RunSnapshot> back = readBack(e);
            uncertain = null;
            if (back.isPresent() && RunNotifications.sameWrite(back.get(), next)) {
                ok = true;
            } else if (back.isPresent() && back.get().version() == current.version()) {
                throw e;   // not applied; the claim is intact
            } else {
                ok = false;
            }
        }
        if (!ok) throw lose.get();
        current = next;
    }

    /** After a write whose outcome is unknown: adopt it if it landed, forget it if not, or give up the claim. */
    void resolveUncertain() {
        RunSnapshot attempted = uncertain;
        if (attempted == null) return;
        Optional<RunSnapshot> back = store.find(current.runId());   // a StorageException leaves it uncertain
        uncertain = null;
        if (back.isPresent() && back.get().version() == attempted.version() && owner.equals(back.get().leaseOwner())
                && attempted.leaseExpiresAt() != null && attempted.leaseExpiresAt().equals(back.get().leaseExpiresAt())) {
            current = back.get();
        } else if (back.isEmpty() || back.get().version() != current.version()) {
            throw lose.get();
        }
    }

    private Optional<RunSnapshot> readBack(StorageException original) {
        try {
            return store.find(current.runId());
        } catch (StorageException again) {
            original.addSuppressed(again);
            throw original;
        }
    }
}
