package dev.baton.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A {@link Clock} that follows a store's own clock ({@link SnapshotStore#now()}): the database's
 * {@code now()}, Redis {@code TIME}, MongoDB's server time. Every instance that judges leases by
 * it agrees on when a lease lapses, whatever its own wall clock says, as ShedLock's
 * {@code usingDbTime()} does.
 *
 * <p>It reads the store's time once, then every {@code resync} (default one minute), and in
 * between adds the time elapsed on this machine's monotonic timer ({@link System#nanoTime()}),
 * which no wall-clock step or skew affects. So judging a lease costs no extra round trip. The
 * reading is taken as of the moment the answer arrived, so this clock runs at most one round trip
 * behind the store: it may see a lease lapse a little late, never early. It never goes backwards.
 *
 * <pre>{@code
 * Agent agent = Agent.builder("travel-agent")...store(store).useStoreClock().build();
 * // or: .clock(StoreClock.of(store))
 * }</pre>
 *
 * <p>Thread-safe (one lock per clock). It closes nothing: the store belongs to whoever opened it.
 */
public final class StoreClock extends Clock {
    private final SnapshotStore store;
    private final long resyncNanos;
    private final Object lock = new Object();
    private long baseMillis;
    private long baseNanos;
    private long lastMillis = Long.MIN_VALUE;
    private boolean synced;

    private StoreClock(SnapshotStore store, Duration resync) {
        this.store = store;
        this.resyncNanos = resync.toNanos();
    }

    /**
     * A clock following {@code store}'s clock, read again every minute.
     *
     * @throws IllegalArgumentException if the store does not declare {@link StoreCapability#STORE_CLOCK}
     * @param store the store
     * @return the clock
     */
    public static StoreClock of(SnapshotStore store) {
        return of(store, Duration.ofMinutes(1));
    }

    /**
     * A clock following {@code store}'s clock, read again every {@code resync}.
     *
     * @param store  the store
     * @param resync how often to read the store's time again, positive
     * @return the clock
     * @throws dev.baton.InvalidOptionException if the store does not declare STORE_CLOCK or resync is not positive
     */
    public static StoreClock of(SnapshotStore store, Duration resync) {
        Objects.requireNonNull(store, "store");
        if (!store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
            throw new dev.baton.InvalidOptionException("clock", store.describe()
                    + " has no clock of its own (it does not declare STORE_CLOCK); use the default clock");
        }
        if (resync.isNegative() || resync.isZero()) throw new dev.baton.InvalidOptionException("resync", "must be positive");
        return new StoreClock(store, resync);
    }

    @Override
    public Instant instant() {
        synchronized (lock) {
            long nanos = System.nanoTime();
            if (!synced || nanos - baseNanos >= resyncNanos) {
                Instant storeNow = store.now();   // a StorageException if the store is down: nobody can judge a lease then
                baseNanos = System.nanoTime();
                baseMillis = storeNow.toEpochMilli();
                synced = true;
                nanos = baseNanos;
            }
            long millis = baseMillis + (nanos - baseNanos) / 1_000_000L;
            if (millis < lastMillis) millis = lastMillis;   // a fresh reading may be a little behind the estimate
            lastMillis = millis;
            return Instant.ofEpochMilli(millis);
        }
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a store clock is always UTC");
    }

    @Override
    public String toString() {
        return "StoreClock[" + store.describe() + "]";
    }
}
