package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The lifecycle half of the TCK: cancelling runs (racing approvals, with subagents), expiring
 * abandoned runs by policy (with several instances expiring at once), keyset paging of the listing
 * under concurrent inserts and deletes, the creation time and deadline shown in the listing, and
 * the store as the outbox of notifications (for stores with {@code NOTIFICATIONS}).
 * Extend it and implement {@link #openStore()} (the same database on every call). The rules, one
 * group per {@code @Nested} class, are in {@code dev.baton.tck.lifecycle}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class LifecycleContract {

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

    /** Cancelling runs, racing approvals and with subagents. */
    @Nested
    class Cancelling extends dev.baton.tck.lifecycle.Cancelling {
        Cancelling() {
            super(storeUnderTest);
        }
    }

    /** Expiring abandoned runs by policy, by several instances at once. */
    @Nested
    class Expiry extends dev.baton.tck.lifecycle.Expiry {
        Expiry() {
            super(storeUnderTest);
        }
    }

    /** The store as the outbox of notifications (stores with NOTIFICATIONS). */
    @Nested
    class Notifications extends dev.baton.tck.lifecycle.Notifications {
        Notifications() {
            super(storeUnderTest);
        }
    }

    /** The agent's listing with a cursor, under churn. */
    @Nested
    class KeysetPaging extends dev.baton.tck.lifecycle.KeysetPaging {
        KeysetPaging() {
            super(storeUnderTest);
        }
    }
}
