package dev.baton.tck.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.ProvesCapability;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotStore#now()}: refused by a store without {@link StoreCapability#STORE_CLOCK} (a duty
 * of every store); the clock's readings, for a store that declares it (they prove the capability).
 */
public abstract class StoreTime extends LeaseRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected StoreTime(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private void assumeStoreClock() {
        assumeTrue(store.capabilities().contains(StoreCapability.STORE_CLOCK),
                store.describe() + " does not declare STORE_CLOCK");
    }

    @Test
    void nowAnswersExactlyWhenTheStoreDeclaresTheStoreClock() {
        if (store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
            assertThat(store.now()).isNotNull();
        } else {
            assertThatThrownBy(store::now).as("now() of %s, which does not declare STORE_CLOCK", store.describe())
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    @ProvesCapability(StoreCapability.STORE_CLOCK)
    void theStoreClockIsWithinSecondsOfThisMachinesClock() {
        assumeStoreClock();
        for (int i = 0; i < 5; i++) {
            Instant before = Instant.now();
            Instant now = store.now();
            Instant after = Instant.now();
            assertThat(now).as("store clock of %s, read between %s and %s", store.describe(), before, after)
                    .isBetween(before.minusSeconds(5), after.plusSeconds(5));
        }
    }

    @Test
    @ProvesCapability(StoreCapability.STORE_CLOCK)
    void theStoreClockNeverGoesBackwards() {
        assumeStoreClock();
        Instant previous = store.now();
        for (int i = 0; i < 300; i++) {
            Instant now = store.now();
            assertThat(now).as("reading %d of the store clock", i).isAfterOrEqualTo(previous);
            previous = now;
        }
    }

    @Test
    @ProvesCapability(StoreCapability.STORE_CLOCK)
    void theStoreClockCountsMilliseconds() {
        assumeStoreClock();
        long started = System.nanoTime();
        Set<Long> millisOfSecond = new TreeSet<>();
        Instant first = store.now();
        Instant last = first;
        int reads = 0;
        while (reads < 300 || System.nanoTime() - started < Duration.ofMillis(60).toNanos()) {
            last = store.now();
            millisOfSecond.add(last.toEpochMilli() % 1000);
            reads++;
        }
        assertThat(millisOfSecond).as("milliseconds of %d readings from %s to %s", reads, first, last)
                .anyMatch(m -> m != 0);
        assertThat(Duration.between(first, last)).as("time the store clock moved over %d readings", reads)
                .isPositive();
    }
}
