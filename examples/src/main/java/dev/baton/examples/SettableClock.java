package dev.baton.examples;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that shows whatever time it was last set to. The demo gives it to
 * {@code Agent.builder().clock(...)} to start runs on different days, so the date filter has
 * something to filter.
 */
final class SettableClock extends Clock {
    private volatile Instant now;

    SettableClock(Instant start) {
        this.now = start;
    }

    void set(Instant instant) {
        this.now = instant;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) throw new UnsupportedOperationException("UTC only");
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
