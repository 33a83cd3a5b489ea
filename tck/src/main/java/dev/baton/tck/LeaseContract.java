package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The lease half of the storage TCK: {@link SnapshotStore#renewLease} (the payload-free renewal a
 * heartbeat sends) and {@link SnapshotStore#now()} (the store's clock). Extend it like
 * {@link SnapshotStoreContract}:
 *
 * <pre>{@code
 * public class PostgresLeaseTest extends LeaseContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open(url); }
 * }
 * }</pre>
 *
 * <p>A renewal is a write like a compare-and-set: it moves the version on, so that a claim decided
 * on an earlier read fails, and it changes nothing else. The store clock tests run only for a
 * store that declares {@link StoreCapability#STORE_CLOCK}; a store without it must refuse
 * {@code now()} with {@link UnsupportedOperationException}.
 *
 * <p>As in {@code SnapshotStoreContract}, each test uses agent ids of its own, so the database
 * need not be emptied between tests. The rules, one group per {@code @Nested} class, are in
 * {@code dev.baton.tck.lease}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class LeaseContract {

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

    /** A renewal changes only the lease expiry and the version. */
    @Nested
    class Renewal extends dev.baton.tck.lease.Renewal {
        Renewal() {
            super(storeUnderTest);
        }
    }

    /** Renewals at another version, of a run not held, or by another owner: refused, nothing changed. */
    @Nested
    class Refusals extends dev.baton.tck.lease.Refusals {
        Refusals() {
            super(storeUnderTest);
        }
    }

    /** A renewed lease moves the run between the suspended and resuming listings as its expiry says. */
    @Nested
    class Listings extends dev.baton.tck.lease.Listings {
        Listings() {
            super(storeUnderTest);
        }
    }

    /** Renewals racing claims, deletes and each other: exactly the successful writes apply. */
    @Nested
    class Races extends dev.baton.tck.lease.Races {
        Races() {
            super(storeUnderTest);
        }
    }

    /** {@code now()}: refused without {@code STORE_CLOCK}; with it, a real clock (3 tests prove {@code STORE_CLOCK}). */
    @Nested
    class StoreTime extends dev.baton.tck.lease.StoreTime {
        StoreTime() {
            super(storeUnderTest);
        }
    }
}
