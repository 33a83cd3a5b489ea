package dev.baton.agent;

import dev.baton.LeaseLostException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's claim on a run it is resuming: every write goes through the store's
 * compare-and-set on the version this claim last wrote, so a process whose lease lapsed and
 * whose run was taken over can never overwrite the new holder (its writes fail with
 * {@link LeaseLostException}). While the run is being worked on, a heartbeat extends the lease.
 */
final class RunClaim {
    private static final Logger LOG = LoggerFactory.getLogger(RunClaim.class);
    private static final ScheduledExecutorService HEARTBEATS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "baton-lease-heartbeat");
        t.setDaemon(true);
        return t;
    });

    private final SnapshotStore store;
    private final Clock clock;
    private final Duration lease;
    private final String owner;
    private RunSnapshot current;
    private boolean lost;
    private boolean finished;
    private int busy;
    private @Nullable ScheduledFuture<?> heartbeat;

    RunClaim(SnapshotStore store, Clock clock, Duration lease, String owner, RunSnapshot claimed) {
        this.store = store;
        this.clock = clock;
        this.lease = lease;
        this.owner = owner;
        this.current = claimed;
        long period = Math.max(10, lease.toMillis() / 3);
        this.heartbeat = HEARTBEATS.scheduleAtFixedRate(this::beat, period, period, TimeUnit.MILLISECONDS);
    }

    String runId() {
        return current.runId();
    }

    synchronized RunSnapshot current() {
        return current;
    }

    /** Marks the start or end of work on the run; the heartbeat extends the lease only while work goes on. */
    synchronized void busy(boolean on) {
        busy += on ? 1 : -1;
    }

    /** Stores progress (a tool's result) and extends the lease. */
    synchronized void progress(String payload) {
        write(current.claimed(owner, clock.instant().plus(lease), payload));
    }

    /** Extends the lease, proving the claim is still ours; throws {@link LeaseLostException} if not. */
    synchronized void renew() {
        write(current.claimed(owner, clock.instant().plus(lease), current.payload()));
    }

    /** The run suspends again: stored as suspended, claim ended. */
    synchronized void suspend(String payload) {
        write(current.suspended(clock.instant(), payload));
        end();
    }

    /** Gives the run back as suspended with the progress stored so far (a stream closed early). */
    synchronized void release() {
        if (finished || lost) return;
        try {
            write(current.suspended(clock.instant(), current.payload()));
        } finally {
            end();
        }
    }

    /** The run ended: its snapshot is deleted, claim ended. */
    synchronized void complete() {
        if (lost) throw new LeaseLostException(current.runId());
        try {
            if (!store.delete(current.runId(), current.version())) {
                lost = true;
                throw new LeaseLostException(current.runId());
            }
        } finally {
            end();
        }
    }

    /** Stops the heartbeat without writing (the run failed while the claim was lost). */
    synchronized void abandon() {
        end();
    }

    private void write(RunSnapshot next) {
        if (lost) throw new LeaseLostException(current.runId());
        if (finished) throw new IllegalStateException("claim on run " + current.runId() + " already ended");
        if (!store.compareAndSet(current.version(), next)) {
            lost = true;
            end();
            throw new LeaseLostException(current.runId());
        }
        current = next;
    }

    private void end() {
        finished = true;
        if (heartbeat != null) {
            heartbeat.cancel(false);
            heartbeat = null;
        }
    }

    private synchronized void beat() {
        if (finished || lost) return;
        if (busy <= 0) {
            // nobody works on the run (a stream left unread, or a crashed consumer): once the lease
            // lapses the run belongs to whoever claims it next, so stop beating for it
            Instant expiry = current.leaseExpiresAt();
            if (expiry == null || !clock.instant().isBefore(expiry)) end();
            return;
        }
        try {
            write(current.claimed(owner, clock.instant().plus(lease), current.payload()));
        } catch (LeaseLostException e) {
            LOG.warn("Lease on run {} was lost: another caller took it over", current.runId());
        } catch (RuntimeException e) {
            LOG.warn("Could not extend the lease on run {}; will retry: {}", current.runId(), e.toString());
        }
    }
}
