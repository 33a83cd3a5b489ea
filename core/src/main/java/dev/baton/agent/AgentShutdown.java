package dev.baton.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an agent's instance leaves: {@link Agent#close()} stops taking new runs and claims, lets the
 * steps under way (a tool) finish within the grace period, and then hands back every claim it
 * still holds at once, each with one compare-and-set to {@code SUSPENDED}, marked interrupted, the
 * recorded decision kept, so another instance continues the run at once instead of waiting for the
 * lease to lapse.
 *
 * <ul>
 *   <li>A claim nobody has started reading (an approval whose stream was not read yet) is handed
 *       back at once: nothing of it is under way.</li>
 *   <li>A run whose stream is being read stops at its next step, as for an interrupt: results
 *       obtained so far are stored with the hand-back, so no tool that finished runs again.</li>
 *   <li>What still runs when the grace period ends is handed back from what the store holds (a
 *       tool under way is then marked as started, and runs again when the run is continued); the
 *       tool's thread is not interrupted, and whatever it returns later is refused by the fence
 *       (its claim is gone).</li>
 * </ul>
 *
 * <p>Thread-safety: any thread may track claims and steps while another closes.
 */
final class AgentShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(AgentShutdown.class);
    private static final int PRUNE_AT = 64;

    private final String agentId;
    private final Duration grace;
    private final Set<RunClaim> claims = ConcurrentHashMap.newKeySet();
    /** Steps of this agent's runs under way now (claimed or not). */
    private final AtomicInteger stepping = new AtomicInteger();
    private volatile boolean closing;
    private volatile boolean closed;

    AgentShutdown(String agentId, Duration grace) {
        this.agentId = agentId;
        this.grace = grace;
    }

    Duration grace() {
        return grace;
    }

    boolean closing() {
        return closing;
    }

    /** Refuses new runs and claims once closing started. */
    void refuseIfClosing(String what) {
        if (closing) {
            throw new IllegalStateException("Agent '" + agentId + "' is closed (its instance is shutting down): it takes no new "
                    + what + "; another instance does");
        }
    }

    /** A claim this instance now holds (again). */
    void track(RunClaim claim) {
        if (claims.size() >= PRUNE_AT) claims.removeIf(RunClaim::ended);
        claims.add(claim);
    }

    void stepStarted() {
        stepping.incrementAndGet();
    }

    void stepEnded() {
        stepping.decrementAndGet();
    }

    /**
     * Closes: refuses new work, hands back unread claims, waits (at most the grace period) for the
     * steps under way to end, then hands back what is left. Idempotent; a second call returns at once.
     *
     * @return how many claims were handed back by this call
     */
    synchronized int close() {
        if (closed) return 0;
        closing = true;
        int handedBack = 0;
        for (RunClaim c : List.copyOf(claims)) {
            if (!c.pickedUp() && c.handBack()) handedBack++;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        boolean interrupted = false;
        while (busy() && System.nanoTime() < deadline) {
            try {
                TimeUnit.MILLISECONDS.sleep(Math.min(10, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            } catch (InterruptedException e) {
                interrupted = true;   // a second signal: stop waiting, hand back at once
                break;
            }
        }
        List<RunClaim> left = new ArrayList<>();
        for (RunClaim c : claims) if (!c.ended()) left.add(c);
        // each claim says what happened to it: a step that ended within the grace period (its loop
        // hands the run back at its next step, or this does, first) is no "tool under way"
        for (RunClaim c : left) if (c.handBack()) handedBack++;
        claims.clear();
        closed = true;
        if (handedBack > 0) LOG.info("Agent '{}' closed: handed back {} claimed run(s) for another instance", agentId, handedBack);
        if (interrupted) Thread.currentThread().interrupt();
        return handedBack;
    }

    private boolean busy() {
        if (stepping.get() > 0) return true;
        for (RunClaim c : claims) if (!c.ended() && c.isBusy()) return true;
        return false;
    }

    /**
     * Why a run was handed back, as its listing shows it ({@code AgentRun.interruption()}).
     *
     * @param stepUnderWay true if a step (a tool) of the run was still under way when it was handed
     *                     back, past the grace period: that tool runs again when the run is continued
     */
    static String reason(boolean stepUnderWay) {
        return stepUnderWay ? "its instance shut down while it ran, past the grace period; continueRun goes on (a tool under"
                + " way runs again)" : "its instance shut down; continueRun goes on";
    }
}
