package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Test;

/**
 * A listing without payloads ({@code withPayload(false)}) returns every other field and an empty
 * payload, so that its cost does not grow with the size of the runs.
 */
public abstract class PayloadFreeListings extends ListingRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected PayloadFreeListings(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aListingWithoutPayloadsReturnsEveryOtherFieldAndAnEmptyPayload() {
        RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
        RunSnapshot listed = store.list(query().withPayload(false).build()).items().get(0);
        assertThat(listed.payload()).isEmpty();
        assertThat(listed.summary()).isEqualTo(s.summary());
        assertThat(listed.version()).isEqualTo(1);
        assertThat(listed.expiresAt()).isEqualTo(s.expiresAt());
        assertThat(listed.createdAt()).isEqualTo(s.createdAt());
    }

    @Test
    void aRowWithoutSummaryIsListedWithItsPayloadSoCoreCanReadIt() {
        RunSnapshot old = insert(Snapshots.suspended(agent, id("legacy"), "t", "u", 0));
        RunSnapshot listed = store.list(query().withPayload(false).build()).items().get(0);
        assertThat(listed.payload()).isEqualTo(old.payload());
    }

    @Test
    void aListingWithPayloadsReturnsThemVerbatim() {
        RunSnapshot s = insert(run("r1", "t", 0, null));
        assertThat(store.list(query().build()).items().get(0).payload()).isEqualTo(s.payload());
    }
}
