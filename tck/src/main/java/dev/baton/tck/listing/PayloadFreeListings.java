package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A listing without payloads ({@code withPayload(false)}) returns every other field and an empty
 * payload, so that its cost does not grow with the size of the runs. The summary is what core
 * lists a run from, so such a listing always returns it, verbatim, and never a payload instead.
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
    void aListingWithoutPayloadsAlwaysReturnsTheSummary() {
        List<String> summaries = List.of(Snapshots.EMPTY_SUMMARY, "{\"calls\": [ {\"toolCallId\":\"c\u00e9\"} ] }",
                "{\"calls\":[],\"interruption\":\"x\"}");
        Map<String, String> written = new LinkedHashMap<>();
        for (int i = 0; i < summaries.size(); i++) {
            RunSnapshot s = insert(run("r" + i, "t", i * 1000L, null).toBuilder().summary(summaries.get(i)).build());
            written.put(s.runId(), s.summary());
        }
        for (RunSnapshot listed : store.list(query().withPayload(false).build()).items()) {
            assertThat(listed.payload()).as("payload of %s", listed.runId()).isEmpty();
            assertThat(listed.summary()).as("summary of %s", listed.runId()).isEqualTo(written.get(listed.runId()));
        }
        assertThat(store.list(query().withPayload(false).page(1, 1).build()).items())
                .singleElement().satisfies(listed -> {
                    assertThat(listed.payload()).isEmpty();
                    assertThat(listed.summary()).isEqualTo(summaries.get(1));
                });
    }

    @Test
    void aListingWithPayloadsReturnsThemVerbatim() {
        RunSnapshot s = insert(run("r1", "t", 0, null));
        assertThat(store.list(query().build()).items().get(0).payload()).isEqualTo(s.payload());
    }
}
