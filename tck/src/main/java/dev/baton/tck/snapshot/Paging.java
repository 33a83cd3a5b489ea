package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page is a slice of the ordered matches, with the total of every match before paging;
 * {@code limit == 0} only counts, no limit lists everything.
 */
public abstract class Paging extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Paging(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    List<RunSnapshot> seed(int n) {
        List<RunSnapshot> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // every third pair shares a creation time, to exercise the tie-breaker across page borders
            all.add(insert(suspended(agent, agent + String.format("-%03d", i), "t", "r", (i / 2) * 10L)));
        }
        all.sort(RunQuery.ORDER);
        return all;
    }

    @Test
    void aPageIsASliceOfTheOrderedMatches() {
        List<RunSnapshot> all = seed(25);
        RunPage page = store.list(query().page(10, 10).build());
        assertThat(page.items()).containsExactlyElementsOf(all.subList(10, 20));
        assertThat(page.total()).isEqualTo(25);
    }

    @Test
    void totalCountsAllMatchesBeforePaging() {
        seed(12);
        insert(suspended(agent, uniqueId("run"), "elsewhere", "r", 0));
        assertThat(store.list(query().threadId("t").page(0, 5).build()).total()).isEqualTo(12);
        assertThat(store.list(query().page(0, 5).build()).total()).isEqualTo(13);
    }

    @Test
    void thePagesTogetherListEveryMatchOnce() {
        List<RunSnapshot> all = seed(23);
        List<RunSnapshot> paged = new ArrayList<>();
        for (int page = 0; page < 5; page++) paged.addAll(store.list(query().page(page * 5L, 5).build()).items());
        assertThat(paged).containsExactlyElementsOf(all);
    }

    @Test
    void aPagePastTheEndIsEmptyWithTheSameTotal() {
        seed(7);
        RunPage page = store.list(query().page(100, 5).build());
        assertThat(page.items()).isEmpty();
        assertThat(page.total()).isEqualTo(7);
    }

    @Test
    void limitZeroGivesOnlyTheTotal() {
        seed(4);
        RunPage page = store.list(query().countOnly().build());
        assertThat(page.items()).isEmpty();
        assertThat(page.total()).isEqualTo(4);
    }

    @Test
    void withoutALimitEveryMatchIsListed() {
        List<RunSnapshot> all = seed(30);
        assertThat(store.list(query().build()).items()).containsExactlyElementsOf(all);
    }

    @Test
    void anEmptyResultHasTotalZero() {
        RunPage page = store.list(query().threadId("nobody").page(0, 10).build());
        assertThat(page.items()).isEmpty();
        assertThat(page.total()).isZero();
    }
}
