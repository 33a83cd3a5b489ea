package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The listing half of the storage TCK: the summary and the deadline stored beside the payload,
 * listings that leave payloads unread, keyset paging with a cursor (stable while runs come and
 * go), finding runs whose wait has expired by their deadline, and, for stores that declare
 * {@link dev.baton.store.QueryFeature#DECIDERS}, the "waiting for me" filter. Extend it and implement
 * {@link #openStore()} (the same database on every call). The rules, one group per
 * {@code @Nested} class, are in {@code dev.baton.tck.listing}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class ListingContract {

    private final StoreUnderTest storeUnderTest = new StoreUnderTest(getClass(), this::openStore);

    /**
     * Opens a store on the database under test; the same database on every call. Called before
     * every test, and again by tests that restart the store or need a second one.
     *
     * @return a new store on the database under test; the TCK closes it
     * @throws Exception if the store cannot be opened: the test fails with it
     */
    protected abstract SnapshotStore openStore() throws Exception;

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5 (see
     * {@link SnapshotStoreContract#testRunnerRunsTheJUnitPlatform()}).
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    /** The summary and the deadline, stored and returned unchanged. */
    @Nested
    class SummaryAndDeadline extends dev.baton.tck.listing.SummaryAndDeadline {
        SummaryAndDeadline() {
            super(storeUnderTest);
        }
    }

    /** Listings that leave payloads unread. */
    @Nested
    class PayloadFreeListings extends dev.baton.tck.listing.PayloadFreeListings {
        PayloadFreeListings() {
            super(storeUnderTest);
        }
    }

    /** A cursor continues strictly after its position, stable under inserts and deletes. */
    @Nested
    class KeysetPaging extends dev.baton.tck.listing.KeysetPaging {
        KeysetPaging() {
            super(storeUnderTest);
        }
    }

    /**
     * "Waiting for me" (docs/approvals.md, A9 to A14): the listing filtered to the runs a principal may decide now, by
     * role, any-principal calls, separation of duties, quorum, several calls, claims; totals, pages and cursors with the
     * other filters; the labels stored with each write. For stores that declare
     * {@link dev.baton.store.QueryFeature#DECIDERS}; skipped for others.
     */
    @Nested
    class WaitingForMe extends dev.baton.tck.listing.WaitingForMe {
        WaitingForMe() {
            super(storeUnderTest);
        }
    }

    /** {@code listDue}: runs whose deadline passed, soonest first. */
    @Nested
    class DueRuns extends dev.baton.tck.listing.DueRuns {
        DueRuns() {
            super(storeUnderTest);
        }
    }
}
