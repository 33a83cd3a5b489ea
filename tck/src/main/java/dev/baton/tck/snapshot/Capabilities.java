package dev.baton.tck.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.store.QueryFeature;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the store declares in {@link SnapshotStore#capabilities()} and
 * {@link SnapshotStore#queryFeatures()} (at least {@link QueryFeature#BASELINE}, the same on every
 * call and every open), and the store clock when declared.
 */
public abstract class Capabilities extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Capabilities(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void theDeclaredCapabilitiesAreTheSameOnEveryCallAndEveryOpen() throws Exception {
        Set<StoreCapability> declared = store.capabilities();
        assertThat(declared).isNotNull().isEqualTo(store.capabilities());
        try (SnapshotStore other = openStore()) {
            assertThat(other.capabilities()).as("capabilities of a second store on the same database").isEqualTo(declared);
        }
    }

    @Test
    void aStoreDeclaresAtLeastTheBaselineQueryFeatures() throws Exception {
        Set<QueryFeature> declared = store.queryFeatures();
        assertThat(declared).as("queryFeatures() of %s", store.describe()).isNotNull().contains(QueryFeature.BASELINE)
                .isEqualTo(store.queryFeatures());
        try (SnapshotStore other = openStore()) {
            assertThat(other.queryFeatures()).as("query features of a second store on the same database").isEqualTo(declared);
        }
    }

    @Test
    void nowReadsTheStoresClockIfAndOnlyIfTheStoreDeclaresStoreClock() {
        if (!store.capabilities().contains(StoreCapability.STORE_CLOCK)) {
            assertThatThrownBy(store::now).isInstanceOf(UnsupportedOperationException.class);
            return;
        }
        Instant before = Instant.now();
        Instant first = store.now();
        Instant second = store.now();
        assertThat(first).isNotNull();
        assertThat(Duration.between(before, first).abs()).as("store clock %s vs this machine's %s", first, before)
                .isLessThan(Duration.ofMinutes(5));
        assertThat(second).as("a second reading of the store clock").isAfterOrEqualTo(first.minusSeconds(1));
    }
}
