package dev.baton.agent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Heartbeats for every claim in this JVM, shared by every agent. One daemon scheduler thread only
 * decides when; each renewal runs on a daemon pool thread of its own (idle threads end after a
 * minute), under a timeout, so a slow or hung store call for one run never delays the renewal of
 * another run's lease. A claim cancels its heartbeat when it ends, and a cancelled heartbeat
 * leaves the scheduler's queue at once, so with no claim in flight nothing is scheduled.
 */
final class LeaseKeeper {
    private static final ScheduledThreadPoolExecutor SCHEDULER = scheduler();
    private static final ExecutorService RENEWALS = Executors.newCachedThreadPool(daemon("baton-lease-renewal"));

    private LeaseKeeper() {
    }

    private static ScheduledThreadPoolExecutor scheduler() {
        ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, daemon("baton-lease-scheduler"));
        s.setRemoveOnCancelPolicy(true);
        return s;
    }

    /** How many heartbeats and delayed tasks are scheduled now (for tests: zero once every claim has ended). */
    static int scheduledTasks() {
        return SCHEDULER.getQueue().size();
    }

    /** Ticks {@code claim} every {@code periodMillis} until it ends. */
    static ScheduledFuture<?> register(RunClaim claim, long periodMillis) {
        return SCHEDULER.scheduleAtFixedRate(() -> tick(claim, periodMillis), periodMillis, periodMillis,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Runs the task in {@code slot} once after {@code delayMillis}, on a pool thread, if it is still there then: emptying
     * the slot before calls it off. The scheduler's queue holds only the slot meanwhile, not what the task holds (a claim
     * and its run), and a task called off costs no pool thread. Emptying the slot does not touch the queue (no wake-up of
     * the scheduler thread, no lock taken on the caller's thread).
     */
    static void later(java.util.concurrent.atomic.AtomicReference<Runnable> slot, long delayMillis) {
        SCHEDULER.schedule(() -> {
            Runnable task = slot.getAndSet(null);
            if (task != null) RENEWALS.execute(task);
        }, delayMillis, TimeUnit.MILLISECONDS);
    }

    private static void tick(RunClaim claim, long periodMillis) {
        claim.stopHeartbeatIfAbandoned();
        if (!claim.beginRenewal()) return;   // idle, ended, or the last renewal is still under way
        CompletableFuture<Void> renewal = CompletableFuture.runAsync(claim::renewFromHeartbeat, RENEWALS);
        // the store's own timeouts end the call eventually; this one marks the lease uncertain at once,
        // so the holder reads it back before it trusts the claim again
        renewal.orTimeout(periodMillis, TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
            if (e instanceof java.util.concurrent.TimeoutException) claim.renewalTimedOut();
        });
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
