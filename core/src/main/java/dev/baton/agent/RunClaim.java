package dev.baton.agent;

import dev.baton.LeaseLostException;
import dev.baton.internal.SnapshotCodec.Encoded;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's claim on a stored run. Every write is a compare-and-set on the version this
 * claim last wrote, so a process whose lease lapsed and whose run was taken over can never
 * overwrite the new holder: its writes fail with {@link LeaseLostException}. While the run loop
 * works (a tool, a model call), a heartbeat extends the lease with a payload-free
 * {@link SnapshotStore#renewLease}. A write whose outcome is unknown (a timeout) is read back
 * before the claim is trusted again.
 *
 * <p>Thread-safety: the run loop's writes and the heartbeat's renewals take one lock per claim,
 * never a lock shared with other runs.
 */
final class RunClaim {
    private static final Logger LOG = LoggerFactory.getLogger(RunClaim.class);

    private final ClaimedVersion version;
    private final Clock clock;
    private final Duration lease;
    /** Half the lease: {@link #fence} renews when less is left ({@code Duration.dividedBy} computes in BigDecimal, so once). */
    private final Duration halfLease;
    private final RunListeners listeners;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicBoolean renewing = new AtomicBoolean();
    private volatile boolean lost;
    private volatile boolean ended;
    /** The stream started reading (set by the loop); a claim nobody picks up is released. */
    private volatile boolean pickedUp;
    /** The claim was given back because its stream was not read in time; the stream may take it again. */
    private volatile boolean releasedUnread;
    private volatile int busy;
    private @Nullable ScheduledFuture<?> heartbeat;
    /**
     * The release of a claim nobody picks up ({@link #releaseIfNotPickedUp}) while it may still be due; emptied once the
     * stream is read or the claim ends, so that the scheduler's queue does not keep the claim and its run until then.
     */
    private final java.util.concurrent.atomic.AtomicReference<Runnable> pickup = new java.util.concurrent.atomic.AtomicReference<>();
    /** The claim was handed back because its agent closed (see {@link AgentShutdown}). */
    private volatile boolean handedBack;
    /** Encodes the run as the loop holds it, marked interrupted with the given reason; read only while nobody works on it. */
    private java.util.function.@Nullable Function<String, Encoded> live;
    /** Encodes a run state for a write of this agent (with its decider labels). */
    private final java.util.function.Function<dev.baton.internal.RunState, Encoded> encoder;

    RunClaim(SnapshotStore store, Clock clock, Duration lease, String owner, RunListeners listeners, RunSnapshot claimed,
            NotificationPolicy notifications, java.util.function.Function<dev.baton.internal.RunState, Encoded> encoder) {
        this.encoder = encoder;
        this.version = new ClaimedVersion(store, clock, lease, owner, notifications, claimed, this::lose);
        this.clock = clock;
        this.lease = lease;
        this.halfLease = half(lease);
        this.listeners = listeners;
        this.heartbeat = LeaseKeeper.register(this, period());
    }

    String runId() {
        return version.current().runId();
    }

    /**
     * {@code d.dividedBy(2)} for a positive duration, in long arithmetic ({@code dividedBy} computes in BigDecimal, a
     * noticeable part of a claim): the same duration, rounded down to the nanosecond ({@code RunClaimTest} holds the two
     * equal on random durations). A negative one is divided by {@code dividedBy}.
     */
    static Duration half(Duration d) {
        long s = d.getSeconds();
        if (s < 0) return d.dividedBy(2);
        return Duration.ofSeconds(s / 2, ((s % 2) * 1_000_000_000L + d.getNano()) / 2);
    }

    RunSnapshot current() {
        return version.current();
    }

    boolean ended() {
        return ended;
    }

    boolean pickedUp() {
        return pickedUp;
    }

    boolean isBusy() {
        return busy > 0;
    }

    /** True if the claim was handed back because its agent closed. */
    boolean handedBack() {
        return handedBack;
    }

    /** How to encode the run as its loop holds it (results not yet stored included), for a hand-back between steps. */
    void liveState(java.util.function.Function<String, Encoded> encoder) {
        this.live = encoder;
    }

    /**
     * Hands the claim back at once because its agent closes: one compare-and-set to
     * {@code SUSPENDED}, marked interrupted, the decision kept. Between steps the loop's own state is
     * written (results not yet stored included), with the reason that the instance shut down; while
     * a step is still under way (past the grace period), what the store holds is, with the reason
     * that it was under way (a tool then runs again). The reason is chosen here, under the claim's
     * lock, from what is really under way at the moment of the write: a tool that finished within
     * the grace period is never said to run again. Never throws.
     *
     * @return true if this call handed the claim back
     */
    boolean handBack() {
        lock.lock();
        try {
            if (ended || lost) return false;
            java.util.function.Function<String, Encoded> l = live;
            boolean underWay = busy > 0;
            String why = AgentShutdown.reason(underWay);
            Encoded state;
            if (!underWay && l != null) {
                state = l.apply(why);
            } else {
                dev.baton.internal.RunState stored = dev.baton.internal.SnapshotCodec.decode(version.current());
                stored.interruption = why;
                state = encoder.apply(stored);
            }
            write(version.suspended(state, true));
            handedBack = true;
            end();
            LOG.debug("Handed back run {}: {}", runId(), why);
            return true;
        } catch (RuntimeException e) {
            LOG.warn("Could not hand back run {} (it is listed again once its lease lapses): {}", runId(), e.toString());
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases the claim if its stream has not started reading after {@code pickup}: a stream
     * that is dropped unread (a caller that declines and ignores the returned stream) holds the
     * run no longer than that, and its recorded decision is kept.
     */
    void releaseIfNotPickedUp(Duration pickup, java.util.function.Supplier<Encoded> withInterruption) {
        this.pickup.set(() -> {
            if (pickedUp || ended || lost) return;
            lock.lock();
            try {
                if (pickedUp || ended || lost) return;
                write(version.suspended(withInterruption.get(), true));
                releasedUnread = true;
                end();
                LOG.debug("Released run {}: its stream was not read within {}", runId(), pickup);
            } catch (RuntimeException e) {
                LOG.warn("Could not release unread run {}: {}", runId(), e.toString());
            } finally {
                lock.unlock();
            }
        });
        if (pickedUp || ended) this.pickup.set(null);   // read (or ended) already
        else LeaseKeeper.later(this.pickup, pickup.toMillis());
    }

    /**
     * The loop starts (or stops) working on the run. Returns false if the claim was released
     * because nobody read the stream in time, or its lease was lost: the loop must not go on.
     */
    boolean busy(boolean on) {
        lock.lock();
        try {
            if (on) {
                if (!pickedUp) {
                    pickedUp = true;
                    pickup.set(null);   // the release is called off: the scheduler's queue no longer holds this claim
                }
                busy++;
                if (heartbeat == null && !ended && !lost) heartbeat = LeaseKeeper.register(this, period());
            } else {
                busy--;
            }
            return !lost && !ended;
        } finally {
            lock.unlock();
        }
    }

    /** True if the claim was given back unread (see {@link #releaseIfNotPickedUp}) and could be taken again. */
    boolean releasedUnread() {
        return releasedUnread && ended && !lost;
    }

    /**
     * Takes the run back after it was released unread, if nobody touched it since: a stream read
     * late goes on as if it had been read at once. Throws {@link LeaseLostException} otherwise.
     */
    void reclaim(Encoded state) {
        lock.lock();
        try {
            if (!releasedUnread()) throw new LeaseLostException(runId());
            RunSnapshot next = version.resuming(state);
            ended = false;
            releasedUnread = false;
            try {
                write(next);
            } catch (RuntimeException e) {
                ended = true;
                throw e;
            }
            pickedUp = true;
            heartbeat = LeaseKeeper.register(this, period());
        } finally {
            lock.unlock();
        }
    }

    /** Stores progress and extends the lease. */
    void progress(Encoded state) {
        lock.lock();
        try {
            write(version.resuming(state));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Before a side effect (a tool): proves the claim is still this process's, renewing the lease
     * if less than half of it is left. Throws {@link LeaseLostException} if it is not.
     */
    void fence() {
        lock.lock();
        try {
            usable();
            version.resolveUncertain();
            Instant expiry = version.current().leaseExpiresAt();
            Instant now = clock.instant();
            if (expiry == null || Duration.between(now, expiry).compareTo(halfLease) < 0) version.renew(now);
        } finally {
            lock.unlock();
        }
    }

    /** The run waits again: stored as suspended, claim ended. */
    void suspend(Encoded state) {
        lock.lock();
        try {
            write(version.suspended(state, false));
            end();
        } finally {
            lock.unlock();
        }
    }

    /** The run stopped part-way: stored as suspended with {@code state} (which says why), claim ended. */
    void release(Encoded state) {
        lock.lock();
        try {
            if (lost) throw new LeaseLostException(runId());
            if (ended) return;
            try {
                write(version.suspended(state, true));
            } finally {
                end();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The run ended: its snapshot is deleted, claim ended. */
    void complete() {
        lock.lock();
        try {
            usable();
            version.resolveUncertain();
            if (!version.delete()) throw lose();
            end();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the heartbeat without writing (the run failed while the store could not be written). */
    void abandon() {
        lock.lock();
        try {
            end();
        } finally {
            lock.unlock();
        }
    }

    // ---- heartbeat ----------------------------------------------------------------------------

    /**
     * For the heartbeat: a claim nobody works on whose lease has lapsed (a stream abandoned half
     * read) needs no ticks; they start again if the stream is read again.
     */
    void stopHeartbeatIfAbandoned() {
        Instant expiry = version.current().leaseExpiresAt();
        if (busy > 0 || ended || expiry == null || clock.instant().isBefore(expiry)) return;
        if (!lock.tryLock()) return;   // the scheduler thread never waits on a claim
        try {
            if (busy > 0 || ended) return;
            ScheduledFuture<?> h = heartbeat;
            heartbeat = null;
            if (h != null) h.cancel(false);
        } finally {
            lock.unlock();
        }
    }

    private long period() {
        return Math.max(10, lease.toMillis() / 3);
    }

    /** For the heartbeat: true if a renewal should be sent now (and marks one as under way). */
    boolean beginRenewal() {
        if (ended || lost || busy <= 0) return false;
        return renewing.compareAndSet(false, true);
    }

    void renewFromHeartbeat() {
        lock.lock();
        try {
            if (ended || lost || busy <= 0) return;
            version.resolveUncertain();
            version.renew(clock.instant());
        } catch (LeaseLostException e) {
            LOG.warn("Lease on run {} was lost: another caller took it over", runId());
        } catch (RuntimeException e) {
            LOG.warn("Could not extend the lease on run {}; will retry: {}", runId(), e.toString());
        } finally {
            lock.unlock();
            renewing.set(false);
        }
    }

    void renewalTimedOut() {
        LOG.warn("Extending the lease on run {} is taking longer than a heartbeat period; the claim is read back"
                + " before it is trusted again", runId());
    }

    // ---- internals (lock held) ----------------------------------------------------------------

    private void write(RunSnapshot next) {
        usable();
        version.write(next);
    }

    private void usable() {
        if (lost) throw new LeaseLostException(runId());
        if (ended) {
            throw new LeaseLostException(runId(), "its claim was given back (its stream was not read in time, or the run"
                    + " stopped); read a new stream with continueRun to go on");
        }
    }

    private LeaseLostException lose() {
        lost = true;
        end();
        listeners.leaseLost(version.current().agentId(), runId());
        return new LeaseLostException(runId());
    }

    private void end() {
        ended = true;
        ScheduledFuture<?> h = heartbeat;
        heartbeat = null;
        if (h != null) h.cancel(false);
        pickup.set(null);
    }
}
