package dev.baton.tck.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand, to control creation, suspension and lease times. Thread-safe. Not API. */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;

    /**
     * A clock that reads {@code start} until moved.
     *
     * @param start the first reading
     */
    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /**
     * Moves the clock on by {@code d}.
     *
     * @param d how far
     */
    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /**
     * Sets the clock to {@code t}.
     *
     * @param t the new reading
     */
    public void set(Instant t) {
        now.set(t);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
