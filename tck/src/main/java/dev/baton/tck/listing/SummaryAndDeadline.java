package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Test;

/**
 * The summary (JSON text core writes beside the payload, required in every run) and the deadline
 * ({@code expiresAt}) are stored and returned unchanged, a null deadline staying null; a
 * compare-and-set replaces them.
 */
public abstract class SummaryAndDeadline extends ListingRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected SummaryAndDeadline(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void theSummaryAndTheDeadlineAreStoredAndReturnedUnchanged() {
        RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
        assertThat(store.find(id("r1"))).contains(s);
        RunSnapshot listed = store.list(query().build()).items().get(0);
        assertThat(listed.summary()).isEqualTo(s.summary());
        assertThat(listed.expiresAt()).isEqualTo(T0.plusSeconds(90));
    }

    @Test
    void aCompareAndSetReplacesTheSummaryAndTheDeadline() {
        RunSnapshot s = insert(run("r1", "t", 0, T0.plusSeconds(90)));
        RunSnapshot next = s.suspended(T0.plusSeconds(5), s.payload() + " ", null, "{\"calls\":[1]}");
        assertThat(store.compareAndSet(1, next)).isTrue();
        RunSnapshot back = store.find(id("r1")).orElseThrow();
        assertThat(back.summary()).isEqualTo("{\"calls\":[1]}");
        assertThat(back.expiresAt()).isNull();
        assertThat(back).isEqualTo(next);
    }
}
