package dev.baton.http;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Why credentials were refused, at INFO for an operator (a misconfigured issuer or audience, an
 * expired key, someone probing), but at most one line per interval: a client that sends bad tokens
 * in a loop cannot flood the log. The refusals in between go to DEBUG and are counted in the next
 * INFO line. Never logs the token or its claims: callers pass the reason only.
 */
final class RefusalLog {
    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong nextInfo;
    private final AtomicLong suppressed = new AtomicLong();

    RefusalLog(Logger log, java.time.Duration interval, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.nextInfo = new AtomicLong(nanoTime.getAsLong());
    }

    RefusalLog(Logger log) {
        this(log, java.time.Duration.ofSeconds(10), System::nanoTime);
    }

    /**
     * Logs one refusal.
     *
     * @param what   what was refused, e.g. "bearer JWT refused"
     * @param reason why, never the credential itself
     * @return true if it went to INFO, false if to DEBUG (within the interval of the last INFO line)
     */
    boolean refused(String what, String reason) {
        long now = nanoTime.getAsLong();
        long next = nextInfo.get();
        if (now - next >= 0 && nextInfo.compareAndSet(next, now + intervalNanos)) {
            long before = suppressed.getAndSet(0);
            if (before == 0) log.info("{}: {}", what, reason);
            else log.info("{}: {} ({} more refused since the last line, at debug level)", what, reason, before);
            return true;
        }
        suppressed.incrementAndGet();
        log.debug("{}: {}", what, reason);
        return false;
    }
}
